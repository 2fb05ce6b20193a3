import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";
import type { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_USER } from "../oauth/support/demo-user";
import { browserSuiteRunnable, launchChromium, type LocalBrowser } from "../support/chromium";

/** Screenshots and accessibility reports of every page, kept for people to look at (gitignored; CI prints the folder). */
const ARTIFACTS = resolve(__dirname, "../../test-artifacts/portal");
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const runnable = browserSuiteRunnable("portal browser test");

/**
 * The portal in one real headless Chromium: sign in, the global filter, secrets shown once, every page's
 * screenshot at desktop and phone widths with an axe-core scan, create/edit/delete through the forms, a
 * forged CSRF token refused, the 404 page.
 */
(runnable ? describe : describe.skip)("portal in a real browser", () => {
  let sb: RunningSandbox;
  let browser: LocalBrowser | undefined;
  let page: Page;
  /** What the browser reported as a console error or a refused resource (a CSP violation would show here). */
  const browserErrors: string[] = [];

  beforeAll(async () => {
    sb = await startSandbox();
    browser = await launchChromium();
    page = browser.page;
    page.on("console", (m) => {
      if (m.type() === "error") browserErrors.push(`${page.url()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => browserErrors.push(`${page.url()}: ${e.message}`));
    rmSync(ARTIFACTS, { recursive: true, force: true });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await sb?.dispose();
  });

  const apiToken = () => sb.token();

  /**
   * Screenshots the page at desktop and phone widths and scans it with axe-core at each (injected through
   * the DevTools protocol, which the page's CSP does not govern); answers the serious and critical violations.
   */
  async function capture(name: string): Promise<string[]> {
    const found: string[] = [];
    for (const [width, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
      if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE_SOURCE);
      const results = await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run());
      writeFileSync(join(ARTIFACTS, `${name}-${width}.axe.json`), JSON.stringify(results.violations, null, 2));
      for (const v of results.violations)
        if (v.impact === "serious" || v.impact === "critical")
          found.push(`${name} (${width}): ${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);
    return found;
  }

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${sb.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${await apiToken()}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (response.status === 204 ? undefined : await response.json()) as T;
  };

  test("the sign-in page, signed out, names the demo user; screenshots and no serious accessibility violation", async () => {
    await page.goto(`${sb.origin}/portal/sign-in`);
    expect(await page.getByText(DEMO_USER.email).count()).toBe(1);
    expect(await page.locator("main").textContent()).toContain(DEMO_USER.password);
    expect(await capture("sign-in")).toEqual([]);
  });

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

  test("every page: a screenshot at desktop and phone width and no serious or critical axe-core violation", async () => {
    await api("POST", "/alerts", {
      name: "Monthly platform budget",
      amount: 40000,
      currency: "USD",
      period: "monthly",
      thresholds: [
        { percent: 80, basis: "actual" },
        { percent: 100, basis: "forecast" },
      ],
    });
    await api("POST", "/reports", {
      name: "Weekly summary",
      report: "summary",
      schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
      recipients: ["finops@example.com"],
    });
    await sb.cli(["token", "create", "--org", "demo", "--label", "ci-deploy"]);
    const violations: string[] = [];
    const pages = [
      ["costs", "/portal/costs"],
      ["accounts", "/portal/accounts"],
      ["groups", "/portal/groups"],
      ["alerts", "/portal/alerts"],
      ["alert-new", "/portal/alerts/new"],
      ["reports", "/portal/reports"],
      ["report-new", "/portal/reports/new"],
      ["api-access", "/portal/api-access"],
      ["events", "/portal/events"],
      ["outbox", "/portal/outbox"],
    ] as const;
    for (const [name, path] of pages) {
      const response = await page.goto(`${sb.origin}${path}`);
      expect(response?.status()).toBe(200);
      if (name === "costs") {
        // Chart.js came from the sandbox and drew both charts (no CSP refusal, no script error).
        await page.waitForFunction(() => {
          const chart = (globalThis as unknown as { Chart?: { getChart(id: string): unknown } }).Chart;
          return chart !== undefined && chart.getChart("chart-by-day") !== undefined && chart.getChart("chart-by-service") !== undefined;
        });
      }
      violations.push(...(await capture(name)));
    }
    expect(violations).toEqual([]);
    expect(browserErrors).toEqual([]);
  });

  test("the Costs page's window form: a preset, custom dates, and the API's message for a backwards window", async () => {
    await page.goto(`${sb.origin}/portal/costs`);
    await page.getByLabel("Window", { exact: true }).selectOption({ label: "Last 7 days" });
    await page.getByRole("button", { name: "Show costs" }).click();
    await page.waitForURL(/preset=last-7/);
    expect(await page.locator("#by-day + .chart + details tbody tr").count()).toBe(7);
    await page.getByLabel("Window", { exact: true }).selectOption({ label: "Custom dates" });
    await page.getByLabel(/^From\b/).fill("2026-03-01");
    await page.getByLabel(/^To\b/).fill("2026-02-01");
    await page.getByRole("button", { name: "Show costs" }).click();
    await page.waitForURL(/preset=custom/);
    expect(await page.locator("#f-to-error").textContent()).toBe("must not be before `from`");
    expect(await page.getByLabel(/^From\b/).inputValue()).toBe("2026-03-01");
    expect(await capture("costs-invalid-window")).toEqual([]);
  });

  test("a budget alert is created (after a refused first try that keeps its values), edited and deleted in the browser", async () => {
    await page.goto(`${sb.origin}/portal/alerts`);
    await page.getByRole("link", { name: "New budget alert" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Browser budget");
    await page.getByLabel(/^Amount/).fill("12.345");
    await page.getByLabel(/^Recipients/).fill("finops@example.com\nnot-an-address");
    await page.getByRole("button", { name: "Create budget alert" }).click();
    expect(await page.locator("#f-amount-error").textContent()).toBe("must have at most two decimal places");
    expect(await page.locator("#f-recipients-error").textContent()).toBe("must be an e-mail address");
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Browser budget");
    expect(await page.getByLabel(/^Amount/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByRole("alert").textContent()).toContain("The form was not saved");
    expect(await capture("alert-form-errors")).toEqual([]);

    await page.getByLabel(/^Amount/).fill("1234.50");
    await page.getByLabel(/^Recipients/).fill("finops@example.com");
    await page.getByRole("button", { name: "Create budget alert" }).click();
    await page.waitForURL(`${sb.origin}/portal/alerts`);
    const created = (await api<{ items: BudgetAlert[] }>("GET", "/alerts")).items.find((a) => a.name === "Browser budget")!;
    expect(created).toMatchObject({ amount: 1234.5, recipients: ["finops@example.com"], thresholds: [{ percent: 80 }, { percent: 100 }] });

    await page.getByRole("link", { name: "Edit budget alert Browser budget" }).click();
    await page.getByLabel(/^Amount/).fill("2000");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(`${sb.origin}/portal/alerts`);
    expect((await api<BudgetAlert>("GET", `/alerts/${created.id}`)).amount).toBe(2000);

    await page.getByRole("button", { name: "Delete budget alert Browser budget" }).click();
    await page.waitForURL(`${sb.origin}/portal/alerts`);
    expect(await page.getByText("Browser budget").count()).toBe(0);
    expect((await fetch(`${sb.baseUrl}/alerts/${created.id}`, { headers: { authorization: `Bearer ${await apiToken()}` } })).status).toBe(
      404,
    );
  });

  test("a scheduled report is created and a Cloud Group renamed and deleted in the browser", async () => {
    await page.goto(`${sb.origin}/portal/reports/new`);
    await page.getByLabel("Name", { exact: true }).fill("Browser report");
    await page.getByLabel("Frequency").selectOption("monthly");
    await page.getByLabel("Day of the week").selectOption({ label: "—" });
    await page.getByLabel("Day of the month").fill("15");
    await page.getByLabel(/^Recipients/).fill("team@example.com");
    await page.getByRole("button", { name: "Create scheduled report" }).click();
    await page.waitForURL(`${sb.origin}/portal/reports`);
    const report = (await api<{ items: ScheduledReport[] }>("GET", "/reports")).items.find((r) => r.name === "Browser report")!;
    expect(report.schedule).toMatchObject({ frequency: "monthly", dayOfMonth: 15 });

    const group = await api<CloudGroup>("POST", "/groups", { name: "Rename me" });
    await page.goto(`${sb.origin}/portal/groups`);
    await page.getByRole("link", { name: "Edit Cloud Group Rename me" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Renamed in the browser");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups`);
    expect((await api<CloudGroup>("GET", `/groups/${group.id}`)).name).toBe("Renamed in the browser");
    await page.getByRole("button", { name: "Delete Cloud Group Renamed in the browser" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups`);
    expect(await page.getByRole("cell", { name: "Renamed in the browser" }).count()).toBe(0);
  });

  test("a form whose CSRF token was tampered with is refused with a page that says why, and nothing changes", async () => {
    const group = await api<CloudGroup>("POST", "/groups", { name: "Keep me" });
    await page.goto(`${sb.origin}/portal/groups`);
    const form = page.locator(`form[action="/portal/groups/${group.id}/delete"]`);
    await form.locator('input[name="_csrf"]').evaluate((input: { value: string }) => (input.value = "forged-token"));
    const [response] = await Promise.all([
      page.waitForResponse(`${sb.origin}/portal/groups/${group.id}/delete`),
      form.getByRole("button").click(),
    ]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Form expired");
    expect(await page.locator("main").textContent()).toContain("CSRF check failed");
    expect(await capture("csrf-refused")).toEqual([]);
    expect((await api<CloudGroup>("GET", `/groups/${group.id}`)).name).toBe("Keep me");
  });

  test("an unknown portal address shows the HTML 404 page with a way back", async () => {
    const response = await page.goto(`${sb.origin}/portal/no-such-page`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
    await page.getByRole("link", { name: "Go to Cloud Groups" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups`);
    await page.goto(`${sb.origin}/portal/no-such-page`);
    expect(await capture("not-found")).toEqual([]);
  });
});
