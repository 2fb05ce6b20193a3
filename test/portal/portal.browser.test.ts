import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import type { CloudGroup } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_USER } from "../oauth/support/demo-user";

const CHROMIUM = "/usr/bin/chromium";
/** Without Debian's chromium a developer machine skips this suite; CI (`CI` set) installs it and must run it. */
const runnable = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!runnable) console.warn(`portal browser test SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium); CI runs it.`);

/** The portal in a real headless Chromium: sign in, see an API-created group in the global filter, create an OAuth client and see its secret once. */
(runnable ? describe : describe.skip)("portal in a real browser", () => {
  let sb: RunningSandbox;
  let profile: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    sb = await startSandbox();
    profile = mkdtempSync(join(tmpdir(), "cloudcost-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await sb?.dispose();
  });

  const apiToken = () => sb.token();

  test("signing in leads to the Cloud Groups page; an API-created group is in the global filter", async () => {
    const token = await apiToken();
    const created = await fetch(`${sb.baseUrl}/groups`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Created by Pulumi" }),
    });
    const group = (await created.json()) as CloudGroup;

    await page.goto(`${sb.origin}/portal`);
    await page.getByLabel("E-mail").fill(DEMO_USER.email);
    await page.getByLabel("Password").fill(DEMO_USER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups`);

    const filter = page.getByRole("combobox", { name: "Cloud Group" });
    await filter.selectOption({ label: "Created by Pulumi" });
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups?group=${group.id}`);
    expect(await page.locator("tbody tr").count()).toBe(1);
    expect(await page.locator("tbody tr td").first().textContent()).toBe("Created by Pulumi");
  });

  test("creating an OAuth client shows its secret once; the secret works and is not shown again", async () => {
    await page.getByRole("link", { name: "API Access" }).click();
    const clientForm = page.locator('form[action="/portal/api-access/clients"]');
    await clientForm.getByLabel("Name").fill("browser-made client");
    await clientForm.getByLabel("run").uncheck();
    await clientForm.getByRole("button", { name: "Create OAuth client" }).click();

    const secret = (await page.locator('[data-secret="Client secret"]').textContent())!;
    const clientId = (await page.locator('[data-secret="Client ID"]').textContent())!;
    expect(secret).toMatch(/^ccs_/);
    const token = await fetch(`${sb.origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: secret }),
    });
    expect(await token.json()).toMatchObject({ scope: "read write" });

    await page.goto(`${sb.origin}/portal/api-access`);
    expect(await page.content()).not.toContain(secret);
    expect(await page.content()).toContain(clientId);
  });

  test("a group created with the portal form is visible through the API as source portal", async () => {
    await page.getByRole("link", { name: "Cloud Groups" }).click();
    const form = page.locator('form[action="/portal/groups"][method="post"]');
    await form.getByLabel("Name").fill("Made in the browser");
    await form.getByRole("button", { name: "Create group" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups`);
    const list = (await (await fetch(`${sb.baseUrl}/groups`, { headers: { authorization: `Bearer ${await apiToken()}` } })).json()) as {
      items: CloudGroup[];
    };
    expect(list.items.find((g) => g.name === "Made in the browser")).toMatchObject({ source: "portal" });
  });
});
