import type { BudgetAlert, CloudGroup, ConnectedAccount, CostByDay, ScheduledReport } from "@cloudcost/api";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { signedInAgent } from "../oauth/support/demo-user";
import { hiddenFields, location, type UserAgent } from "../oauth/support/user-agent";

/**
 * Issue 20 part 4 over plain HTTP: error pages, the sign-in page, Costs and Accounts, budget bars, create/edit/delete
 * with the API's own rules and messages, CSRF, and token rows with their last use. The browser suite drives the same in Chromium.
 */
describe("portal as a product", () => {
  let sb: RunningSandbox;
  let agent: UserAgent;
  let token: string;

  beforeAll(async () => {
    sb = await startSandbox();
    agent = await signedInAgent(sb.origin);
    token = await sb.token();
  });
  afterAll(() => sb?.dispose());

  const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${sb.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
  };
  const page = async (path: string) => (await agent.get(path)).text();
  const submit = async (pagePath: string, action: string, fields: Record<string, string | string[]>) =>
    agent.post(action, { ...hiddenFields(await page(pagePath), action), ...fields });
  /** The page's table cells without their phone-layout column names, to compare cell contents. */
  const plain = (s: string) => s.replace(/ data-label="[^"]*"/g, "");
  const decode = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");

  describe("error pages", () => {
    test("an unknown portal page is an HTML 404 page with a way back; the API keeps answering problem+json", async () => {
      const missing = await fetch(`${sb.origin}/portal/nope`);
      expect(missing.status).toBe(404);
      expect(missing.headers.get("content-type")).toMatch(/^text\/html/);
      const text = await missing.text();
      expect(text).toContain("Page not found");
      expect(text).toContain('<a href="/portal/groups">');
      expect((await fetch(`${sb.baseUrl}/nope`)).headers.get("content-type")).toMatch(/problem\+json/);
    });

    test("the browser's favicon request gets an icon, not a JSON problem", async () => {
      const icon = await fetch(`${sb.origin}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      expect(await icon.text()).toContain("<svg");
    });

    test("editing an object that does not exist is an HTML 404 page naming it", async () => {
      const response = await agent.get("/portal/alerts/alr_doesnotexist0000000000/edit");
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("alr_doesnotexist0000000000");
    });
  });

  test("the sign-in page names the demo user itself, as serve prints it", async () => {
    const text = await (await fetch(`${sb.origin}/portal/sign-in`)).text();
    expect(text).toContain("demo@cloudcost.dev");
    expect(text).toContain("sandbox-demo-password");
    expect(text).not.toContain("OAUTH.md");
  });

  describe("API Access", () => {
    test("token rows show name, scopes, created and last used; each button names its token; times are human with the ISO time in a tooltip", async () => {
      const created = await sb.cliJson<{ token: string }>([
        "token",
        "create",
        "--org",
        "demo",
        "--label",
        "ci-deploy",
        "--scopes",
        "read",
        "--json",
      ]);
      const row = (html: string) => {
        const start = html.lastIndexOf("<tr>", html.indexOf("<td>ci-deploy</td>"));
        return html.slice(start, html.indexOf("</tr>", start));
      };
      const before = row(plain(await page("/portal/api-access")));
      expect(before).toMatch(/aria-label="Revoke token ci-deploy \(created \d{4}-\d\d-\d\dT[\d:.]+Z\)"/);
      expect(before).toMatch(/<time datetime="(\d{4}-[^"]+Z)" title="\1">(just now|\d+ minutes? ago)<\/time>/);
      expect(before).toContain("<td>read</td>");
      // Never used: the "Last used" cell says so.
      expect(before.match(/<td>never<\/td>/g)?.length).toBe(2); // last used, expires
      expect((await fetch(`${sb.baseUrl}/groups`, { headers: { authorization: `Bearer ${created.token}` } })).status).toBe(200);
      const after = row(plain(await page("/portal/api-access")));
      expect(after.match(/<td>never<\/td>/g)?.length).toBe(1); // expires only
      expect(after.match(/<time /g)?.length).toBe(2); // created and last used
      // Used again within the minute: the stored time stays (no write per request on the hot path).
      const lastUsed = (html: string) => [...html.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1])[1];
      expect((await fetch(`${sb.baseUrl}/groups`, { headers: { authorization: `Bearer ${created.token}` } })).status).toBe(200);
      expect(lastUsed(row(plain(await page("/portal/api-access"))))).toBe(lastUsed(after));
    });

    test("client rows' delete buttons name the client", async () => {
      const client = await sb.client("read");
      expect(await page("/portal/api-access")).toMatch(new RegExp(`aria-label="Delete client [^"]+ \\(${client.client_id}\\)"`));
    });
  });

  describe("budget alerts: create, edit, delete with the API's rules", () => {
    const valid = { name: "Team budget", amount: "1000", currency: "USD", period: "monthly", groupId: "", enabled: "on" };

    test("an invalid alert is refused with the API's messages next to each field, keeps what was typed, and creates nothing", async () => {
      const before = (await api<{ items: BudgetAlert[] }>("GET", "/alerts")).body.items.length;
      const form = {
        ...valid,
        name: "Typed name",
        amount: "12.345",
        currency: "usd",
        "thresholds.0.percent": "80",
        "thresholds.0.basis": "actual",
        "thresholds.1.percent": "",
        "thresholds.2.percent": "-5",
        "thresholds.2.basis": "forecast",
        recipients: "finops@example.com\nnot-an-address",
        webhookUrl: "http://evil.example/hook",
      };
      const response = await submit("/portal/alerts/new", "/portal/alerts", form);
      expect(response.status).toBe(400);
      const html = decode(await response.text());
      // The API, given the same alert, names the same fields with the same messages.
      const apiAnswer = await api<{ errors: { path: string; message: string }[] }>("POST", "/alerts", {
        name: "Typed name",
        amount: 12.345,
        currency: "usd",
        period: "monthly",
        thresholds: [
          { percent: 80, basis: "actual" },
          { percent: -5, basis: "forecast" },
        ],
        recipients: ["finops@example.com", "not-an-address"],
        webhookUrl: "http://evil.example/hook",
      });
      expect(apiAnswer.status).toBe(400);
      const fieldIds: Record<string, string> = {
        "body.amount": "f-amount-error",
        "body.currency": "f-currency-error",
        "body.thresholds.1.percent": "f-thresholds-2-percent-error", // the form's third row: the blank second row is skipped
        "body.recipients.1": "f-recipients-error",
        "body.webhookUrl": "f-webhookUrl-error",
      };
      expect([...new Set(apiAnswer.body.errors.map((e) => e.path))].sort()).toEqual(Object.keys(fieldIds).sort());
      for (const e of apiAnswer.body.errors)
        expect(html).toMatch(new RegExp(`id="${fieldIds[e.path]}">[^<]*${e.message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
      expect(html).toContain('aria-invalid="true" aria-describedby="f-amount-error"');
      expect(html).toContain('value="Typed name"');
      expect(html).toContain('value="12.345"');
      expect(html).toContain("not-an-address</textarea>");
      expect((await api<{ items: BudgetAlert[] }>("GET", "/alerts")).body.items.length).toBe(before);
    });

    test("a created alert is the API's alert; editing replaces it; deleting removes it", async () => {
      const group = (await api<CloudGroup>("POST", "/groups", { name: "Alert target" })).body;
      const created = await submit("/portal/alerts/new", "/portal/alerts", {
        ...valid,
        groupId: group.id,
        "thresholds.0.percent": "50",
        "thresholds.0.basis": "actual",
        "thresholds.1.percent": "110",
        "thresholds.1.basis": "forecast",
        recipients: "a@example.com, b@example.com",
      });
      expect(created.status).toBe(303);
      const alert = (await api<{ items: BudgetAlert[] }>("GET", "/alerts")).body.items.find((a) => a.name === "Team budget")!;
      expect(alert).toMatchObject({
        amount: 1000,
        groupId: group.id,
        thresholds: [
          { percent: 50, basis: "actual" },
          { percent: 110, basis: "forecast" },
        ],
        recipients: ["a@example.com", "b@example.com"],
        webhookUrl: null,
        enabled: true,
      });

      const list = await page("/portal/alerts");
      expect(list).toContain(`aria-label="Edit budget alert Team budget"`);
      expect(list).toMatch(
        /Spend so far \$[\d,.]+ \(\d+% of the \$1,000\.00 budget\), forecast \$[\d,.]+ \(\d+%\); thresholds 50% actual, 110% forecast\./,
      );
      expect(list).toContain('<svg class="budget-bar"');

      const edit = await page(`/portal/alerts/${alert.id}/edit`);
      expect(edit).toContain('value="Team budget"');
      expect(edit).toContain(`<option value="${group.id}" selected>`);
      const editFields = hiddenFields(edit, `/portal/alerts/${alert.id}`);
      // Without a threshold row the API's rule for `thresholds` answers, beside the thresholds, and nothing changes.
      const noThresholds = await agent.post(`/portal/alerts/${alert.id}`, { ...editFields, ...valid, amount: "2500.50" });
      expect(noThresholds.status).toBe(400);
      const apiNoThresholds = await api<{ errors: { path: string; message: string }[] }>("PUT", `/alerts/${alert.id}`, {
        name: "Team budget",
        amount: 2500.5,
        currency: "USD",
        period: "monthly",
        thresholds: [],
      });
      expect(apiNoThresholds.body.errors[0]!.path).toBe("body.thresholds");
      expect(decode(await noThresholds.text())).toContain(`<p class="field-error">${apiNoThresholds.body.errors[0]!.message}</p>`);
      expect((await api<BudgetAlert>("GET", `/alerts/${alert.id}`)).body.amount).toBe(1000);

      const saved = await agent.post(`/portal/alerts/${alert.id}`, {
        ...editFields,
        ...valid,
        amount: "2500.50",
        "thresholds.0.percent": "75",
        "thresholds.0.basis": "forecast",
      });
      expect(saved.status).toBe(303);
      // A form is the whole alert, as PUT is: the blank cover and recipients are the new values.
      expect((await api<BudgetAlert>("GET", `/alerts/${alert.id}`)).body).toMatchObject({
        amount: 2500.5,
        groupId: null,
        recipients: [],
        thresholds: [{ percent: 75, basis: "forecast" }],
      });
    });

    test("deleting from the list removes the alert for the API too", async () => {
      const made = (
        await api<BudgetAlert>("POST", "/alerts", {
          name: "Short-lived",
          amount: 5,
          currency: "USD",
          period: "monthly",
          thresholds: [{ percent: 100, basis: "actual" }],
        })
      ).body;
      const response = await submit("/portal/alerts", `/portal/alerts/${made.id}/delete`, {});
      expect(response.status).toBe(303);
      expect((await api("GET", `/alerts/${made.id}`)).status).toBe(404);
    });
  });

  describe("issue 27's fields on alerts and reports", () => {
    const valid = { name: "Scoped budget", amount: "1000", currency: "USD", period: "monthly", groupId: "", enabled: "on" };
    const nextMonth = (() => {
      const now = new Date();
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
    })();

    test("an alert with filters, an absolute and a routed threshold, planned amounts and dates is the API's alert, and edits back", async () => {
      const created = await submit("/portal/alerts/new", "/portal/alerts", {
        ...valid,
        "filters.services": "Amazon EC2\nAmazon S3",
        "filters.regions": "eu-west-1",
        "filters.tags": "team=web\nteam=data\nenv=prod",
        "thresholds.0.amount": "900",
        "thresholds.0.basis": "actual",
        "thresholds.0.sendTo": "own",
        "thresholds.0.recipients": "oncall@example.com",
        "thresholds.1.percent": "80",
        "thresholds.1.basis": "forecast",
        "thresholds.1.sendTo": "none",
        "thresholds.2.percent": "100",
        "thresholds.2.basis": "actual",
        "thresholds.2.sendTo": "alert",
        recipients: "finops@example.com",
        plannedAmounts: `${nextMonth} 1500`,
        startDate: "2026-01-15",
        endDate: "2030-12-31",
      });
      expect(created.status).toBe(303);
      const alert = (await api<{ items: BudgetAlert[] }>("GET", "/alerts")).body.items.find((a) => a.name === "Scoped budget")!;
      expect(alert.filters).toEqual({
        services: ["Amazon EC2", "Amazon S3"],
        regions: ["eu-west-1"],
        // As typed: the values of one key gathered in order of first appearance (the cost reads' `tag` rule).
        tags: [
          { key: "team", values: ["web", "data"] },
          { key: "env", values: ["prod"] },
        ],
      });
      expect(alert.thresholds.map((t) => [t.percent ?? t.amount, t.basis, t.recipients ?? "alert"])).toEqual(
        expect.arrayContaining([
          [900, "actual", ["oncall@example.com"]],
          [80, "forecast", []],
          [100, "actual", "alert"],
        ]),
      );
      expect(alert).toMatchObject({
        plannedAmounts: [{ periodStart: nextMonth, amount: 1500 }],
        startDate: "2026-01-15",
        endDate: "2030-12-31",
      });

      const list = decode(await page("/portal/alerts"));
      expect(list).toContain("services: Amazon EC2, Amazon S3; regions: eu-west-1; tag team: web or data; tag env: prod");
      expect(list).toContain("$900.00 actual → oncall@example.com");
      expect(list).toContain("80% forecast → webhook only");
      expect(list).toMatch(/of the \$1,000\.00 budget\)/);

      const edit = decode(await page(`/portal/alerts/${alert.id}/edit`));
      expect(edit).toContain("Amazon EC2\nAmazon S3</textarea>");
      expect(edit).toContain("team=web\nteam=data\nenv=prod</textarea>");
      expect(edit).toContain(`${nextMonth} 1500</textarea>`);
      expect(edit).toContain('value="2026-01-15"');
      expect(edit).toContain('<option value="none" selected>');
    });

    test("the budget column and bar use the period's effective amount, and say where it came from", async () => {
      const made = (
        await api<BudgetAlert>("POST", "/alerts", {
          name: "History budget",
          amount: 5,
          currency: "USD",
          period: "monthly",
          autoAdjust: { lookbackPeriods: 3 },
          thresholds: [{ percent: 100, basis: "actual" }],
        })
      ).body;
      expect(made.effectiveAmountSource).toBe("autoAdjust");
      const list = decode(await page("/portal/alerts"));
      const effective = `$${made.effectiveAmount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      expect(list).toContain(`${effective} (set from history)`);
      expect(list).toContain(`of the ${effective} budget)`);
      expect((await api("DELETE", `/alerts/${made.id}`)).status).toBe(204);
    });

    test("a filter the service cannot evaluate and two sources of amounts are refused at their fields, with the API's messages", async () => {
      const form = {
        ...valid,
        name: "Refused",
        "thresholds.0.percent": "100",
        "thresholds.0.basis": "actual",
        "filters.services": "Amazon EC3",
        plannedAmounts: `${nextMonth} 10`,
        "autoAdjust.lookbackPeriods": "3",
      };
      const response = await submit("/portal/alerts/new", "/portal/alerts", form);
      expect(response.status).toBe(400);
      const html = decode(await response.text());
      expect(html).toMatch(/id="f-filters-services-error">[^<]*is not a service the service bills/);
      const again = await submit("/portal/alerts/new", "/portal/alerts", { ...form, "filters.services": "Amazon EC2" });
      expect(again.status).toBe(400);
      expect(decode(await again.text())).toMatch(/id="f-autoAdjust-lookbackPeriods-error">cannot be combined with plannedAmounts/);
      expect((await api<{ items: BudgetAlert[] }>("GET", "/alerts")).body.items.some((a) => a.name === "Refused")).toBe(false);
    });

    test("a report feeds a webhook without recipients; a budget_status report refuses filters under the filters' legend", async () => {
      const form = {
        name: "EU feed",
        report: "services",
        groupId: "",
        frequency: "daily",
        dayOfWeek: "",
        dayOfMonth: "",
        time: "06:00",
        timezone: "UTC",
        format: "csv",
        recipients: "",
        webhookUrl: "https://hooks.example.com/feed",
        "filters.regions": "eu-west-1\nwesteurope",
        enabled: "on",
      };
      expect((await submit("/portal/reports/new", "/portal/reports", form)).status).toBe(303);
      const feed = (await api<{ items: ScheduledReport[] }>("GET", "/reports")).body.items.find((r) => r.name === "EU feed")!;
      expect(feed).toMatchObject({
        recipients: [],
        webhookUrl: "https://hooks.example.com/feed",
        filters: { regions: ["eu-west-1", "westeurope"] },
      });
      const list = decode(await page("/portal/reports"));
      expect(list).toContain("regions: eu-west-1, westeurope");
      expect(list).not.toContain("hooks.example.com/feed");

      const status = await submit("/portal/reports/new", "/portal/reports", { ...form, name: "Status", report: "budget_status" });
      expect(status.status).toBe(400);
      expect(decode(await status.text())).toMatch(/id="f-filters-error">must be empty for budget_status reports/);
      const noOne = await submit("/portal/reports/new", "/portal/reports", { ...form, name: "No one", webhookUrl: "" });
      expect(noOne.status).toBe(400);
      expect(decode(await noOne.text())).toMatch(/id="f-recipients-error">needs at least one address unless webhookUrl is set/);
    });
  });

  describe("scheduled reports", () => {
    test("a weekly report without its day gets the API's message at the day field; a valid one is created, edited and deleted", async () => {
      const form = {
        name: "Weekly costs",
        report: "summary",
        groupId: "",
        frequency: "weekly",
        dayOfWeek: "",
        dayOfMonth: "",
        time: "08:00",
        timezone: "Europe/Berlin",
        format: "csv",
        recipients: "finops@example.com",
        enabled: "on",
      };
      const refused = await submit("/portal/reports/new", "/portal/reports", form);
      expect(refused.status).toBe(400);
      expect(decode(await refused.text())).toMatch(/id="f-dayOfWeek-error">is required for weekly schedules</);

      expect((await submit("/portal/reports/new", "/portal/reports", { ...form, dayOfWeek: "friday" })).status).toBe(303);
      const report = (await api<{ items: ScheduledReport[] }>("GET", "/reports")).body.items.find((r) => r.name === "Weekly costs")!;
      expect(report.schedule).toMatchObject({ frequency: "weekly", dayOfWeek: "friday", time: "08:00", timezone: "Europe/Berlin" });

      const edit = await page(`/portal/reports/${report.id}/edit`);
      const monthlyWithWeekday = await agent.post(`/portal/reports/${report.id}`, {
        ...hiddenFields(edit, `/portal/reports/${report.id}`),
        ...form,
        frequency: "monthly",
        dayOfWeek: "friday",
        dayOfMonth: "31",
      });
      expect(monthlyWithWeekday.status).toBe(400);
      expect(decode(await monthlyWithWeekday.text())).toMatch(/id="f-dayOfWeek-error">is only allowed for weekly schedules</);
      const monthly = await agent.post(`/portal/reports/${report.id}`, {
        ...hiddenFields(edit, `/portal/reports/${report.id}`),
        ...form,
        frequency: "monthly",
        dayOfMonth: "31",
      });
      expect(monthly.status).toBe(303);
      expect((await api<ScheduledReport>("GET", `/reports/${report.id}`)).body.schedule).toMatchObject({
        frequency: "monthly",
        dayOfMonth: 31,
        dayOfWeek: null,
      });

      expect((await submit("/portal/reports", `/portal/reports/${report.id}/delete`, {})).status).toBe(303);
      expect((await api("GET", `/reports/${report.id}`)).status).toBe(404);
    });
  });

  describe("Cloud Groups", () => {
    test("renaming to another group's name is refused with the API's conflict message; a group in use cannot be deleted", async () => {
      const a = (await api<CloudGroup>("POST", "/groups", { name: "Group A" })).body;
      await api<CloudGroup>("POST", "/groups", { name: "Group B" });
      const edit = await page(`/portal/groups/${a.id}/edit`);
      const clash = await agent.post(`/portal/groups/${a.id}`, {
        ...hiddenFields(edit, `/portal/groups/${a.id}`),
        name: "group b",
        description: "",
      });
      expect(clash.status).toBe(409);
      const apiClash = await api<{ detail: string }>("PATCH", `/groups/${a.id}`, { name: "group b" });
      expect(decode(await clash.text())).toContain(apiClash.body.detail);
      expect(
        (
          await agent.post(`/portal/groups/${a.id}`, {
            ...hiddenFields(edit, `/portal/groups/${a.id}`),
            name: "Group A2",
            description: "renamed",
          })
        ).status,
      ).toBe(303);
      expect((await api<CloudGroup>("GET", `/groups/${a.id}`)).body).toMatchObject({ name: "Group A2", description: "renamed" });

      await api("POST", "/alerts", {
        name: "Uses A",
        amount: 5,
        currency: "USD",
        period: "monthly",
        groupId: a.id,
        thresholds: [{ percent: 100, basis: "actual" }],
      });
      const inUse = await submit("/portal/groups", `/portal/groups/${a.id}/delete`, {});
      expect(inUse.status).toBe(409);
      expect(decode(await inUse.text())).toContain("is used by");
      expect((await api("GET", `/groups/${a.id}`)).status).toBe(200);
    });
  });

  test("a change without the CSRF token, or with another session's, is refused with a page that says so and changes nothing", async () => {
    const target = (
      await api<BudgetAlert>("POST", "/alerts", {
        name: "Guarded",
        amount: 5,
        currency: "USD",
        period: "monthly",
        thresholds: [{ percent: 100, basis: "actual" }],
      })
    ).body;
    const other = await signedInAgent(sb.origin);
    const foreignToken = hiddenFields(await (await other.get("/portal/alerts")).text(), `/portal/alerts/${target.id}/delete`)._csrf!;
    for (const fields of [{}, { _csrf: foreignToken }, { _csrf: "forged" }] as Record<string, string>[]) {
      const response = await agent.post(`/portal/alerts/${target.id}/delete`, fields);
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("CSRF check failed");
    }
    expect((await api("GET", `/alerts/${target.id}`)).status).toBe(200);
  });

  test("the global Cloud Group filter survives: links, forms and the redirect after a save keep it; changing it keeps the Costs window", async () => {
    const group = (await api<CloudGroup>("POST", "/groups", { name: "Filter kept" })).body;
    const list = decode(await page(`/portal/alerts?group=${group.id}`));
    expect(list).toContain(`href="/portal/alerts/new?group=${group.id}"`);
    const form = decode(await page(`/portal/alerts/new?group=${group.id}`));
    expect(form).toContain(`action="/portal/alerts?group=${group.id}"`);
    const saved = await submit(`/portal/alerts/new?group=${group.id}`, `/portal/alerts?group=${group.id}`, {
      name: "Kept in its group",
      amount: "100",
      currency: "USD",
      period: "monthly",
      groupId: group.id,
      enabled: "on",
      "thresholds.0.percent": "80",
      "thresholds.0.basis": "actual",
    });
    expect(saved.status).toBe(303);
    expect(location(saved)).toBe(`/portal/alerts?group=${group.id}`);
    // The global filter's form on the Costs page sends the chosen window again (but never a list cursor).
    const costs = decode(await page("/portal/costs?preset=custom&from=2026-01-01&to=2026-01-31&cursor=abc"));
    const filter = /<form method="get" action="\/portal\/costs" aria-label="Global filter">(.*?)<label>/s.exec(costs)![1]!;
    expect(filter).toContain('<input type="hidden" name="preset" value="custom">');
    expect(filter).toContain('<input type="hidden" name="from" value="2026-01-01">');
    expect(filter).toContain('<input type="hidden" name="to" value="2026-01-31">');
    expect(filter).not.toContain('name="cursor"');
  });

  describe("Costs and Accounts", () => {
    test("the Costs page shows the API's numbers for the chosen window and loads Chart.js from the sandbox itself", async () => {
      const response = await agent.get("/portal/costs?preset=custom&from=2026-01-01&to=2026-01-31");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-security-policy")).toMatch(/script-src 'self'(;|$)/);
      const html = plain(await response.text());
      const byDay = (await api<CostByDay>("GET", "/cost/daily?from=2026-01-01&to=2026-01-31")).body;
      const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(n);
      expect(html).toContain(`Billed spend <strong>${usd(byDay.total)}</strong>`);
      expect(html).toContain(`<tr><td>2026-01-15</td><td>${usd(byDay.days[14]!.amount)}</td>`);
      expect(html).toContain('<canvas id="chart-by-day" role="img"');
      const data = JSON.parse(/<script type="application\/json" id="cost-data">([^<]*)<\/script>/.exec(html)![1]!) as { days: unknown[] };
      expect(data.days).toHaveLength(31);
      for (const src of [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!)) {
        expect(src).toMatch(/^\/portal\/assets\//);
        const script = await fetch(`${sb.origin}${src}`);
        expect(script.status).toBe(200);
        expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
      }
      expect(await (await fetch(`${sb.origin}/portal/assets/chart.umd.min.js`)).text()).toMatch(/Chart\.js v4/);
    });

    test("a window the API refuses is refused with the API's message at the date field", async () => {
      const response = await agent.get("/portal/costs?preset=custom&from=2026-03-01&to=2026-02-01");
      expect(response.status).toBe(400);
      const apiAnswer = await api<{ errors: { path: string; message: string }[] }>("GET", "/cost/daily?from=2026-03-01&to=2026-02-01");
      expect(apiAnswer.body.errors[0]).toMatchObject({ path: "query.to" });
      expect(decode(await response.text())).toContain(`id="f-to-error">${apiAnswer.body.errors[0]!.message}<`);
    });

    test("the Accounts page lists the organization's accounts with their Cloud Groups", async () => {
      const accounts = (await api<{ items: ConnectedAccount[] }>("GET", "/accounts")).body.items;
      expect(accounts.length).toBeGreaterThan(0);
      const html = plain(decode(await page("/portal/accounts")));
      for (const a of accounts) expect(html).toContain(`<td>${a.name}</td><td>${a.provider}</td><td><code>${a.accountId}</code></td>`);
    });
  });

  test("a careless or hostile form (any field, repeated, huge row numbers, long lists) is never a 5xx and never a huge page", async () => {
    const group = (await api<CloudGroup>("POST", "/groups", { name: "Fuzzed" })).body;
    const alert = (
      await api<BudgetAlert>("POST", "/alerts", {
        name: "Fuzzed",
        amount: 5,
        currency: "USD",
        period: "monthly",
        thresholds: [{ percent: 100, basis: "actual" }],
      })
    ).body;
    const targets = fc.constantFrom(
      ["/portal/alerts/new", "/portal/alerts"],
      [`/portal/alerts/${alert.id}/edit`, `/portal/alerts/${alert.id}`],
      ["/portal/reports/new", "/portal/reports"],
      ["/portal/groups", "/portal/groups"],
      [`/portal/groups/${group.id}/edit`, `/portal/groups/${group.id}`],
    );
    const name = fc.constantFrom(
      "name",
      "amount",
      "currency",
      "period",
      "groupId",
      "recipients",
      "webhookUrl",
      "enabled",
      "report",
      "frequency",
      "dayOfWeek",
      "dayOfMonth",
      "time",
      "timezone",
      "format",
      "description",
      "thresholds.0.percent",
      "thresholds.0.basis",
      "thresholds.99999999.percent",
      "thresholds.7.percent",
      "__proto__",
      "constructor",
    );
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("1e400", "-0", "NaN", "99999999999999999999", "a@b.c\n".repeat(2000), "", "\u0000"),
    );
    const fields = fc.dictionary(name, fc.oneof(value, fc.array(value, { maxLength: 3 })), { maxKeys: 8 });
    await fc.assert(
      fc.asyncProperty(targets, fields, async ([pagePath, action], form) => {
        const response = await submit(pagePath, action, form);
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(response.headers.get("content-type")).toMatch(/^text\/html/);
        expect((await response.text()).length).toBeLessThan(200_000);
      }),
      { numRuns: 60 },
    );
    const window = fc.record(
      {
        preset: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("last-7", "custom", "__proto__", "toString")),
        from: fc.string({ maxLength: 12 }),
        to: fc.string({ maxLength: 12 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(window, async (query) => {
        const response = await agent.get(`/portal/costs?${new URLSearchParams(query)}`);
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: 40 },
    );
  });
});

describe("portal 500 page", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("a page the sandbox cannot build (its data folder damaged underneath it) is an HTML 500 page with the request ID and no internals", async () => {
    const agent = await signedInAgent(sb.origin);
    const db = new Database(join(sb.dataDir, "sandbox.db"));
    try {
      db.exec("DROP TABLE accounts");
    } finally {
      db.close();
    }
    const response = await agent.get("/portal/accounts");
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const text = await response.text();
    expect(text).toContain("Something went wrong");
    expect(text).toContain(`<code>${response.headers.get("x-request-id")}</code>`);
    // Nothing of what failed (the SQLite message names the table) and no stack.
    expect(text).not.toMatch(/no such table|sqlite|SqliteError|\bat .*\.js/i);
  });
});
