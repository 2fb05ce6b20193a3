import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { DeliveryList, type Event } from "@cloudcost/api";
import { sandboxControl, startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_USER } from "../oauth/support/demo-user";
import { call, fields, reportBody } from "../sandbox/api-client";
import { fireAlert } from "../sandbox/fire-alert";
import { startRecordingReceiver, verify, type RecordingReceiver } from "../sandbox/webhook-receiver";
import { browserSuiteRunnable, launchChromium, type LocalBrowser } from "../support/chromium";

const runnable = browserSuiteRunnable("portal events browser test");

/**
 * The Events and Outbox pages in a real headless Chromium: an alert that fired, its deliveries and
 * attempts, the Redeliver button (a real form post with its CSRF token) reaching a real receiver with the
 * same webhook-id, and a report's PDF downloaded from the outbox.
 */
(runnable ? describe : describe.skip)("portal Events and Outbox in a real browser", () => {
  let sb: RunningSandbox;
  let receiver: RecordingReceiver;
  let browser: LocalBrowser | undefined;
  let page: Page;
  let token: string;
  let fired: Event;

  beforeAll(async () => {
    receiver = await startRecordingReceiver();
    sb = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sb.token("read,write");
    fired = await fireAlert(sb, {
      token,
      name: "Browser budget",
      accountId: "111122223333",
      webhookUrl: receiver.url,
      recipients: ["ops@example.com"],
    });
    await receiver.waitFor((d) => d.id === fired.id);
    browser = await launchChromium();
    page = browser.page;
    await page.goto(`${sb.origin}/portal`);
    await page.getByLabel("E-mail").fill(DEMO_USER.email);
    await page.getByLabel("Password").fill(DEMO_USER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${sb.origin}/portal/groups`);
  });
  afterAll(async () => {
    await browser?.close();
    await sb?.dispose();
    await receiver?.close();
  });

  const deliveries = async (eventId: string) =>
    DeliveryList.parse((await call(sb, "GET", `/events/${eventId}/deliveries`, { token })).body).items;

  test("the Events page lists the alert that fired; its page shows the e-mail and the webhook delivery with their attempts", async () => {
    await page.getByRole("link", { name: "Events", exact: true }).click();
    await page.waitForURL(`${sb.origin}/portal/events`);
    const row = page.locator("tbody tr", { hasText: "Browser budget" });
    expect(await row.count()).toBe(1);
    expect(await row.locator("td").nth(1).textContent()).toBe("budget_alert.threshold_crossed");

    await row.getByRole("link", { name: fired.id }).click();
    await page.waitForURL(`${sb.origin}/portal/events/${fired.id}`);
    expect(JSON.parse((await page.locator("pre").textContent())!)).toEqual(fired);
    const webhook = page.locator("tbody tr", { hasText: receiver.url });
    expect(await webhook.locator("td").first().textContent()).toBe("webhook");
    expect(await webhook.locator("td").nth(2).textContent()).toBe("succeeded");
    expect(await webhook.locator("li").first().textContent()).toMatch(/HTTP 204, \d+ ms$/);
    const mail = page.locator("tbody tr", { hasText: "ops@example.com" });
    expect(await mail.locator("td").first().textContent()).toBe("email");
    expect(await mail.locator("li").first().textContent()).toMatch(/: captured in the outbox$/);
  });

  test("Redeliver sends the webhook once more with the same webhook-id, signed; the page then shows the second attempt", async () => {
    const before = receiver.received.filter((d) => d.id === fired.id).length;
    await page.getByRole("button", { name: "Redeliver webhook" }).click();
    await page.waitForURL(`${sb.origin}/portal/events/${fired.id}?redelivered=1`);
    expect(await page.getByRole("status").textContent()).toMatch(/One more webhook attempt is queued/);

    const [, again] = await receiver.waitFor((d) => d.id === fired.id, before + 1);
    const { secret } = fields(await call(sb, "GET", "/webhooks/signing-secret", { token })) as { secret: string };
    expect(verify(secret, again!)).toEqual(fired);

    // Once the worker has recorded the attempt, a reload shows it.
    for (let i = 0; i < 200; i++) {
      const hook = (await deliveries(fired.id)).find((d) => d.channel === "webhook")!;
      if (hook.attempts.length === 2 && hook.status === "succeeded") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await page.reload();
    expect(await page.locator("tbody tr", { hasText: receiver.url }).locator("li").count()).toBe(2);
  });

  test("the Outbox page shows the captured messages; a report's PDF downloads with its bytes", async () => {
    const report = fields(
      await call(sb, "POST", "/reports", {
        token,
        json: reportBody({
          name: "Browser daily",
          format: "pdf",
          schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
          recipients: ["cfo@example.com"],
        }),
      }),
    );
    await sandboxControl(sb, token, "/clock", { advance: "P1D" });

    await page.getByRole("link", { name: "Outbox", exact: true }).click();
    await page.waitForURL(`${sb.origin}/portal/outbox`);
    expect(await page.locator("tbody tr", { hasText: "ops@example.com" }).count()).toBe(1);
    const reportRow = page.locator("tbody tr", { hasText: "cfo@example.com" }).first();
    const link = reportRow.locator("a[download]");
    const filename = (await link.textContent())!;
    expect(filename).toMatch(/\.pdf$/);

    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe(filename);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // The event link leads to the report's delivery event.
    await reportRow.locator("a", { hasText: /^evt_/ }).click();
    expect(await page.locator("pre").textContent()).toContain(String(report.id));
  });
});
