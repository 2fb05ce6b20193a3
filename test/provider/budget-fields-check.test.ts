/**
 * Issue 27's inputs in the provider's own Check and Diff (the fast harness): each rule the contract holds
 * is reported by the failing field's path before anything is sent, and Diff compares the new sets as sets —
 * order, duplicates and empty lists never a change; a threshold routed to nobody (`recipients: []`) is not
 * the same as one that uses the alert's recipients; `effectiveAmount`, an output, never a change.
 */
import { unknownValue } from "@pulumi/pulumi/runtime";
import { handlers } from "../../provider/src/runtime";

type Json = Record<string, unknown>;
type Kind = "BudgetAlert" | "ScheduledReport";

const check = (kind: Kind, news: Json) => handlers[kind].check({}, news);
/** Whether diff finds a change: `false` is none; a change is answered "unknown" (handlers.ts says why). */
const changes = async (kind: Kind, olds: Json, news: Json) => (await handlers[kind].diff("id", olds, news)).changes !== false;

const ALERT: Json = { name: "a", amount: 1000 };
const REPORT: Json = {
  name: "r",
  report: "summary",
  schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
  recipients: ["a@b.co"],
};

/** The failures of a check, as `property: reason`. */
async function failures(kind: Kind, news: Json): Promise<string[]> {
  return ((await check(kind, news)).failures ?? []).map((f) => `${f.property}: ${f.reason}`);
}

describe("field-level failures of the new inputs", () => {
  it.each([
    ["BudgetAlert", { ...ALERT, filters: { services: ["Amazon EC3"] } }, "filters.services[0]"],
    ["BudgetAlert", { ...ALERT, filters: { regions: ["mars-north-1"] } }, "filters.regions[0]"],
    ["BudgetAlert", { ...ALERT, filters: { accountIds: ["1234"] } }, "filters.accountIds[0]"],
    ["BudgetAlert", { ...ALERT, filters: { tags: [{ key: "team", values: [] }] } }, "filters.tags[0].values"],
    ["BudgetAlert", { ...ALERT, filters: { providers: ["azure"], services: ["Amazon EC2"] } }, "filters.services[0]"],
    // Issue 33: combinations that could never match fail in Check, before anything is sent.
    [
      "BudgetAlert",
      { ...ALERT, filters: { accountIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"], services: ["Amazon EC2"] } },
      "filters.accountIds[0]",
    ],
    ["BudgetAlert", { ...ALERT, filters: { services: ["Amazon EC2"], regions: ["eastus"] } }, "filters.regions[0]"],
    ["BudgetAlert", { ...ALERT, filters: { services: ["Amazon CloudFront"], regions: ["us-east-1"] } }, "filters.services[0]"],
    ["BudgetAlert", { ...ALERT, filters: { colour: ["red"] } }, "filters.colour"],
    ["BudgetAlert", { ...ALERT, thresholds: [{ percent: 50, amount: 10, basis: "actual" }] }, "thresholds[0].amount"],
    ["BudgetAlert", { ...ALERT, thresholds: [{ basis: "actual" }] }, "thresholds[0].percent"],
    ["BudgetAlert", { ...ALERT, thresholds: [{ amount: 10.001, basis: "actual" }] }, "thresholds[0].amount"],
    ["BudgetAlert", { ...ALERT, thresholds: [{ percent: 50, basis: "actual", recipients: ["nope"] }] }, "thresholds[0].recipients[0]"],
    ["BudgetAlert", { ...ALERT, plannedAmounts: [{ periodStart: "2026-01-15", amount: 5 }] }, "plannedAmounts[0].periodStart"],
    ["BudgetAlert", { ...ALERT, plannedAmounts: [{ periodStart: "2026-01-01", amount: 0 }] }, "plannedAmounts[0].amount"],
    ["BudgetAlert", { ...ALERT, autoAdjust: { lookbackPeriods: 13 } }, "autoAdjust.lookbackPeriods"],
    [
      "BudgetAlert",
      { ...ALERT, autoAdjust: { lookbackPeriods: 3 }, plannedAmounts: [{ periodStart: "2026-01-01", amount: 5 }] },
      "autoAdjust",
    ],
    ["BudgetAlert", { ...ALERT, startDate: "2026-02-30" }, "startDate"],
    ["BudgetAlert", { ...ALERT, startDate: "2026-03-01", endDate: "2026-02-01" }, "endDate"],
    ["ScheduledReport", { ...REPORT, report: "budget_status", filters: { services: ["Amazon EC2"] } }, "filters"],
    ["ScheduledReport", { ...REPORT, recipients: [] }, "recipients"],
    ["ScheduledReport", { ...REPORT, webhookUrl: "http://example.com/feed" }, "webhookUrl"],
    ["ScheduledReport", { ...REPORT, filters: { regions: ["nowhere"] } }, "filters.regions[0]"],
  ] as [Kind, Json, string][])("%s %j fails on %s, naming it", async (kind, news, property) => {
    const found = await failures(kind, news);
    expect(found.map((f) => f.split(": ")[0])).toContain(property);
    for (const f of found) expect(f).not.toMatch(/\n\s+at /); // a reason, never a stack trace
  });

  it("accepts every new input at once, and a spend feed with a webhook and no recipients", async () => {
    const alert = await check("BudgetAlert", {
      ...ALERT,
      filters: {
        providers: ["aws"],
        accountIds: ["111122223333"],
        services: ["Amazon EC2"],
        regions: ["eu-west-1"],
        tags: [{ key: "team", values: ["web"] }],
      },
      thresholds: [
        { amount: 900, basis: "actual", recipients: ["oncall@example.com"] },
        { percent: 100, basis: "forecast", recipients: [] },
      ],
      plannedAmounts: [{ periodStart: "2027-01-01", amount: 1500 }],
      startDate: "2026-11-15",
      endDate: "2027-12-31",
    });
    expect(alert.failures).toBeUndefined();
    const feed = await check("ScheduledReport", { ...REPORT, recipients: [], webhookUrl: "https://hooks.example.com/feed" });
    expect(feed.failures).toBeUndefined();
  });

  it("cross-field rules wait while a field they read is unknown (preview), and never throw", async () => {
    const preview = await check("BudgetAlert", { ...ALERT, autoAdjust: { lookbackPeriods: 3 }, plannedAmounts: unknownValue });
    expect(preview.failures).toBeUndefined();
    const report = await check("ScheduledReport", { ...REPORT, report: unknownValue, filters: { services: ["Amazon EC2"] } });
    expect(report.failures).toBeUndefined();
  });
});

describe("diff of the new inputs", () => {
  const stored = async (kind: Kind, x: Json) => ({
    ...(await check(kind, x)).inputs,
    effectiveAmount: 1000,
    updatedAt: "2026-01-01T00:00:00Z",
  });

  it("filters: order, duplicates, an empty list and an empty filter are no change; another value is", async () => {
    const olds = await stored("BudgetAlert", {
      ...ALERT,
      filters: { services: ["Amazon S3", "Amazon EC2"], tags: [{ key: "team", values: ["web", "data"] }] },
    });
    const respelled = {
      ...ALERT,
      filters: { tags: [{ key: "team", values: ["data", "web", "web"] }], services: ["Amazon EC2", "Amazon S3", "Amazon S3"], regions: [] },
    };
    expect(await changes("BudgetAlert", olds, (await check("BudgetAlert", respelled)).inputs!)).toBe(false);
    const none = await stored("BudgetAlert", ALERT);
    for (const empty of [{}, { services: [] }, { services: [], tags: [] }, null])
      expect(await changes("BudgetAlert", none, (await check("BudgetAlert", { ...ALERT, filters: empty })).inputs!)).toBe(false);
    expect(
      await changes("BudgetAlert", olds, (await check("BudgetAlert", { ...ALERT, filters: { services: ["Amazon EC2"] } })).inputs!),
    ).toBe(true);
  });

  it("an Azure subscription in a filter compares case-insensitively", async () => {
    const guid = "0b1f6471-1bf0-4dda-aec3-cb9272f09590";
    const olds = await stored("BudgetAlert", { ...ALERT, filters: { accountIds: [guid] } });
    const upper = (await check("BudgetAlert", { ...ALERT, filters: { accountIds: [guid.toUpperCase()] } })).inputs!;
    expect(await changes("BudgetAlert", olds, upper)).toBe(false);
  });

  it("thresholds: a set with money in cents and recipients as a set; [] (webhook only) differs from the alert's recipients", async () => {
    const olds = await stored("BudgetAlert", {
      ...ALERT,
      thresholds: [
        { percent: 80, basis: "forecast" },
        { amount: 0.3, basis: "actual", recipients: ["a@example.com", "b@example.com"] },
      ],
    });
    const respelled = [
      { amount: 0.1 + 0.2, basis: "actual", recipients: ["B@Example.com", "a@example.com", "a@example.com"] },
      { percent: 80, basis: "forecast", recipients: null },
    ];
    expect(await changes("BudgetAlert", olds, (await check("BudgetAlert", { ...ALERT, thresholds: respelled })).inputs!)).toBe(false);
    const silenced = [
      { amount: 0.3, basis: "actual", recipients: ["a@example.com", "b@example.com"] },
      { percent: 80, basis: "forecast", recipients: [] },
    ];
    expect(await changes("BudgetAlert", olds, (await check("BudgetAlert", { ...ALERT, thresholds: silenced })).inputs!)).toBe(true);
  });

  it("planned amounts: a set by period start, [] the same as none; effectiveAmount in the stored outputs is never a change", async () => {
    const planned = [
      { periodStart: "2027-02-01", amount: 20 },
      { periodStart: "2027-01-01", amount: 10 },
    ];
    const olds = await stored("BudgetAlert", { ...ALERT, plannedAmounts: planned });
    expect(
      await changes(
        "BudgetAlert",
        { ...olds, effectiveAmount: 20 },
        (await check("BudgetAlert", { ...ALERT, plannedAmounts: [...planned].reverse() })).inputs!,
      ),
    ).toBe(false);
    const none = await stored("BudgetAlert", ALERT);
    expect(await changes("BudgetAlert", none, (await check("BudgetAlert", { ...ALERT, plannedAmounts: [] })).inputs!)).toBe(false);
    expect(await changes("BudgetAlert", olds, (await check("BudgetAlert", { ...ALERT, plannedAmounts: planned.slice(1) })).inputs!)).toBe(
      true,
    );
  });

  it("a report's filters are sets too, and its webhook a compared input", async () => {
    const olds = await stored("ScheduledReport", {
      ...REPORT,
      filters: { regions: ["westeurope", "eu-west-1"] },
      webhookUrl: "https://hooks.example.com/a",
    });
    const same = (
      await check("ScheduledReport", {
        ...REPORT,
        filters: { regions: ["eu-west-1", "westeurope", "westeurope"], services: [] },
        webhookUrl: "https://hooks.example.com/a",
      })
    ).inputs!;
    expect(await changes("ScheduledReport", olds, same)).toBe(false);
    const moved = (
      await check("ScheduledReport", {
        ...REPORT,
        filters: { regions: ["eu-west-1", "westeurope"] },
        webhookUrl: "https://hooks.example.com/b",
      })
    ).inputs!;
    expect(await changes("ScheduledReport", olds, moved)).toBe(true);
  });
});
