import fc from "fast-check";
import { unknownValue } from "@pulumi/pulumi/runtime";
import { handlers } from "../../provider/src/runtime";

type Json = Record<string, unknown>;
type Kind = "CloudGroup" | "BudgetAlert" | "ScheduledReport";

async function check(kind: Kind, news: Json) {
  return handlers[kind].check({}, news);
}
/** Whether diff finds a change: `false` is none; a change is answered "unknown" (handlers.ts says why). */
async function changes(kind: Kind, olds: Json, news: Json) {
  return (await handlers[kind].diff("id", olds, news)).changes !== false;
}

// ---- Arbitraries of valid inputs, and of the same intent spelled differently ----
/** The Azure values among the filter values below (the others are AWS's). */
const AZURE_VALUES = ["Virtual Machines", "westeurope"];
const guid = fc.uuid().map((u) => u.toLowerCase());
const awsId = fc.stringMatching(/^\d{12}$/);
const email = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.constantFrom("example.com", "corp.dev")).map(([u, d]) => `${u}@${d}`);
const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,30}[A-Za-z0-9]$/);
const groupId = fc.stringMatching(/^grp_[0-9a-z]{10,20}$/);
const threshold = fc.record({ percent: fc.integer({ min: 1, max: 1000 }), basis: fc.constantFrom("actual", "forecast") });

const groupInputs = fc.record(
  {
    name,
    description: fc.string({ maxLength: 50 }),
    azureSubscriptionIds: fc.uniqueArray(guid, { maxLength: 4 }),
    awsAccountIds: fc.uniqueArray(awsId, { maxLength: 4 }),
  },
  { requiredKeys: ["name"] },
);
const alertInputs = fc.record(
  {
    name,
    amount: fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100),
    currency: fc.constantFrom("USD", "EUR", "JPY"),
    period: fc.constantFrom("monthly", "quarterly", "annual"),
    groupId,
    thresholds: fc.uniqueArray(threshold, { minLength: 1, maxLength: 5, selector: (t) => `${t.basis}:${t.percent}` }),
    recipients: fc.uniqueArray(email, { maxLength: 5 }),
    webhookUrl: fc.constantFrom("https://hooks.example.com/a", "http://localhost:9000/hook"),
    enabled: fc.boolean(),
    // Issue 27: filters of lists that are sets (respelled below, inside the object too), and a window.
    // Services and regions of the same providers only: an AWS service with only Azure regions (or the
    // reverse) could never match and is refused (issue 33), so it is no valid input.
    filters: fc
      .record(
        {
          services: fc.subarray(["Amazon EC2", "Amazon S3", "Virtual Machines"]),
          regions: fc.subarray(["us-east-1", "eu-west-1", "westeurope"]),
          tags: fc.subarray([
            { key: "team", values: ["web", "data"] },
            { key: "env", values: ["prod"] },
          ]),
        },
        { requiredKeys: [] },
      )
      .filter(({ services = [], regions = [] }) => {
        const providers = (values: string[]) => new Set(values.map((v) => (AZURE_VALUES.includes(v) ? "azure" : "aws")));
        const [ofServices, ofRegions] = [providers(services), providers(regions)];
        return services.length === 0 || regions.length === 0 || [...ofServices].sort().join() === [...ofRegions].sort().join();
      }),
    startDate: fc.constantFrom("2026-01-01", "2026-11-15"),
  },
  { requiredKeys: ["name", "amount"] },
);
const schedule = fc.oneof(
  fc.record({
    frequency: fc.constant("daily"),
    time: fc.constantFrom("00:00", "09:30", "23:59"),
    timezone: fc.constantFrom("UTC", "Europe/Berlin"),
  }),
  fc.record({
    frequency: fc.constant("weekly"),
    dayOfWeek: fc.constantFrom("monday", "sunday"),
    time: fc.constant("08:00"),
    timezone: fc.constant("America/New_York"),
  }),
  fc.record({
    frequency: fc.constant("monthly"),
    dayOfMonth: fc.integer({ min: 1, max: 31 }),
    time: fc.constant("06:15"),
    timezone: fc.constant("Asia/Tokyo"),
  }),
);
const reportInputs = fc.record(
  {
    name,
    report: fc.constantFrom("summary", "services", "daily", "forecast", "comparison"),
    groupId,
    schedule,
    format: fc.constantFrom("csv", "pdf"),
    recipients: fc.uniqueArray(email, { minLength: 1, maxLength: 5 }),
    enabled: fc.boolean(),
  },
  { requiredKeys: ["name", "report", "schedule", "recipients"] },
);

/** The same intent as `x`, spelled the way a user might: lists shuffled, duplicated, upper-cased; blanks around names. */
function respelled(x: Json, rnd: () => number): Json {
  const shuffle = <T>(l: T[]) => [...l, ...l.slice(0, 1)].sort(() => rnd() - 0.5);
  const out: Json = { ...x, name: ` ${String(x.name)} ` };
  for (const [k, v] of Object.entries(x)) {
    if (!Array.isArray(v)) continue;
    out[k] = shuffle(v).map((e) => (typeof e === "string" && (k === "recipients" || k === "azureSubscriptionIds") ? e.toUpperCase() : e));
  }
  for (const k of ["description", "groupId", "webhookUrl", "recipients", "azureSubscriptionIds", "awsAccountIds"])
    if (!(k in x) && rnd() < 0.5) out[k] = null;
  if (x.filters !== null && typeof x.filters === "object") {
    // Each filter list shuffled and duplicated, and an empty list added: the same filter.
    const filters = Object.fromEntries(Object.entries(x.filters as Json).map(([k, v]) => [k, Array.isArray(v) ? shuffle(v) : v]));
    out.filters = { ...filters, accountIds: [] };
  }
  return out;
}

const cases = [
  { kind: "CloudGroup" as const, arb: groupInputs },
  { kind: "BudgetAlert" as const, arb: alertInputs },
  { kind: "ScheduledReport" as const, arb: reportInputs },
];

describe.each(cases)("$kind check and diff", ({ kind, arb }) => {
  it("check never throws, whatever the inputs", async () => {
    const junk = fc.dictionary(
      fc.oneof(fc.constantFrom("name", "amount", "thresholds", "schedule", "recipients", "azureSubscriptionIds", "adoptId"), fc.string()),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(junk, arb as fc.Arbitrary<Json>), async (news) => {
        const r = await check(kind, news);
        expect(r.inputs).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });

  it("accepts valid inputs, and check is idempotent", async () => {
    await fc.assert(
      fc.asyncProperty(arb as fc.Arbitrary<Json>, async (x) => {
        const first = await check(kind, x);
        expect(first.failures).toBeUndefined();
        const again = await check(kind, first.inputs!);
        expect(again.inputs).toEqual(first.inputs);
      }),
      { numRuns: 200 },
    );
  });

  it("diff(state of x, check(x respelled)) reports no change", async () => {
    await fc.assert(
      fc.asyncProperty(arb as fc.Arbitrary<Json>, fc.integer(), async (x, seed) => {
        let s = seed;
        const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) >>> 0) / 2 ** 31;
        const state = { ...(await check(kind, x)).inputs, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-02T00:00:00.000Z" };
        const news = await check(kind, respelled(x, rnd));
        expect(news.failures).toBeUndefined();
        expect(await changes(kind, state, news.inputs!)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("diff reports a change when an input really changes, and never asks for a replacement", async () => {
    await fc.assert(
      fc.asyncProperty(arb as fc.Arbitrary<Json>, async (x) => {
        const state = (await check(kind, x)).inputs!;
        const renamed = (await check(kind, { ...x, name: `${String(x.name)}-2` })).inputs!;
        const result = await handlers[kind].diff("id", state, renamed);
        // "Unknown", so that the engine diffs the inputs itself and knows which changed (issue 33).
        expect(result.changes).toBeUndefined();
        expect(result.replaces).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it("an unknown value (preview) passes check and shows as a change", async () => {
    const x = fc.sample(arb as fc.Arbitrary<Json>, { numRuns: 1, seed: 7 })[0]!;
    const state = (await check(kind, x)).inputs!;
    const preview = await check(kind, { ...x, name: unknownValue });
    expect(preview.failures).toBeUndefined();
    expect(preview.inputs!.name).toBe(unknownValue);
    expect(await changes(kind, state, preview.inputs!)).toBe(true);
  });
});

describe("field-level failures", () => {
  it.each([
    ["CloudGroup", { name: "" }, "name"],
    ["CloudGroup", { name: "g", awsAccountIds: ["123"] }, "awsAccountIds[0]"],
    ["CloudGroup", { name: "g", azureSubscriptionIds: ["not-a-guid"] }, "azureSubscriptionIds[0]"],
    ["CloudGroup", { name: "g", adoptId: "alr_0123456789" }, "adoptId"],
    ["CloudGroup", { name: "g", colour: "red" }, "colour"],
    ["BudgetAlert", { name: "a" }, "amount"],
    ["BudgetAlert", { name: "a", amount: 10.005 }, "amount"],
    ["BudgetAlert", { name: "a", amount: 10, currency: "XXQ" }, "currency"],
    ["BudgetAlert", { name: "a", amount: 10, thresholds: [{ percent: 0, basis: "actual" }] }, "thresholds[0].percent"],
    ["BudgetAlert", { name: "a", amount: 10, thresholds: [] }, "thresholds"],
    ["BudgetAlert", { name: "a", amount: 10, recipients: ["not-an-address"] }, "recipients[0]"],
    ["BudgetAlert", { name: "a", amount: 10, webhookUrl: "http://example.com/hook" }, "webhookUrl"],
    ["BudgetAlert", { name: "a", amount: 10, groupId: "nope" }, "groupId"],
    [
      "ScheduledReport",
      { name: "r", report: "weekly", schedule: { frequency: "daily", time: "09:00", timezone: "UTC" }, recipients: ["a@b.co"] },
      "report",
    ],
    [
      "ScheduledReport",
      { name: "r", report: "daily", schedule: { frequency: "weekly", time: "09:00", timezone: "UTC" }, recipients: ["a@b.co"] },
      "schedule.dayOfWeek",
    ],
    [
      "ScheduledReport",
      { name: "r", report: "daily", schedule: { frequency: "daily", time: "25:00", timezone: "UTC" }, recipients: ["a@b.co"] },
      "schedule.time",
    ],
    [
      "ScheduledReport",
      { name: "r", report: "daily", schedule: { frequency: "daily", time: "09:00", timezone: "Mars/Olympus" }, recipients: ["a@b.co"] },
      "schedule.timezone",
    ],
    [
      "ScheduledReport",
      { name: "r", report: "daily", schedule: { frequency: "daily", time: "09:00", timezone: "UTC" }, recipients: [] },
      "recipients",
    ],
  ] as const)("%s %j fails on %s", async (kind, news, property) => {
    const r = await check(kind, news as Json);
    expect(r.failures?.map((f) => f.property)).toContain(property);
    expect(r.failures!.every((f) => f.reason.length > 0)).toBe(true);
  });

  it("accepts every amount with whole cents up to 10^12, and no amount with a third decimal", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 99_999_999_999_999 }), async (cents) => {
        expect((await check("BudgetAlert", { name: "a", amount: cents / 100 })).failures).toBeUndefined();
        const third = await check("BudgetAlert", { name: "a", amount: (cents * 10 + 5) / 1000 });
        expect(third.failures?.map((f) => f.property)).toEqual(["amount"]);
      }),
      { numRuns: 500 },
    );
  });

  it("names a missing required input as required", async () => {
    const r = await check("ScheduledReport", { name: "r" });
    expect(r.failures).toEqual(
      expect.arrayContaining([
        { property: "report", reason: "is required" },
        { property: "schedule", reason: "is required" },
      ]),
    );
    // Since issue 27 a report may be a webhook-only feed: recipients are required only without a webhookUrl.
    const schedule = { frequency: "daily", time: "09:00", timezone: "UTC" };
    expect((await check("ScheduledReport", { name: "r", report: "summary", schedule })).failures).toEqual([
      { property: "recipients", reason: "needs at least one address unless webhookUrl is set" },
    ]);
    expect(
      (await check("ScheduledReport", { name: "r", report: "summary", schedule, webhookUrl: "https://feed.example/x" })).failures,
    ).toBeUndefined();
  });

  it("limits a group to 1000 members across both providers", async () => {
    const aws = Array.from({ length: 600 }, (_, i) => String(100000000000 + i));
    const azure = Array.from({ length: 401 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    const r = await check("CloudGroup", { name: "big", awsAccountIds: aws, azureSubscriptionIds: azure });
    expect(r.failures).toEqual([{ property: "azureSubscriptionIds", reason: expect.stringContaining("1000") }]);
  });
});

describe("normalisation and defaults", () => {
  it("applies the documented alert defaults", async () => {
    const r = await check("BudgetAlert", { name: "a", amount: 100 });
    expect(r.inputs).toEqual({
      name: "a",
      amount: 100,
      currency: "USD",
      period: "monthly",
      groupId: null,
      filters: {},
      thresholds: [{ percent: 100, basis: "actual" }],
      recipients: [],
      webhookUrl: null,
      enabled: true,
      plannedAmounts: [],
      autoAdjust: null,
      startDate: null,
      endDate: null,
    });
  });

  it("sorts, de-duplicates and lower-cases sets, and drops __provider", async () => {
    const r = await check("CloudGroup", {
      __provider: "exports.handler = …",
      name: "  Platform ",
      azureSubscriptionIds: [
        "B0000000-0000-4000-8000-000000000000",
        "a0000000-0000-4000-8000-000000000000",
        "b0000000-0000-4000-8000-000000000000",
      ],
      awsAccountIds: ["222222222222", "111111111111", "222222222222"],
    });
    expect(r.inputs).toEqual({
      name: "Platform",
      description: "",
      azureSubscriptionIds: ["a0000000-0000-4000-8000-000000000000", "b0000000-0000-4000-8000-000000000000"],
      awsAccountIds: ["111111111111", "222222222222"],
    });
  });

  it("treats a schedule's null day fields like absent ones", async () => {
    const state = {
      name: "r",
      report: "daily",
      groupId: null,
      filters: {},
      format: "csv",
      recipients: ["a@b.co"],
      webhookUrl: null,
      enabled: true,
      schedule: { frequency: "daily", dayOfWeek: null, dayOfMonth: null, time: "09:00", timezone: "UTC" },
    };
    const news = await check("ScheduledReport", {
      name: "r",
      report: "daily",
      recipients: ["A@b.co"],
      schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
    });
    expect(await changes("ScheduledReport", state, news.inputs!)).toBe(false);
  });
});
