/**
 * Issue 27's fields through the real Pulumi CLI. For every new input of BudgetAlert and ScheduledReport: a
 * change made behind Pulumi's back (through the API, as the portal or a script would) shows in
 * `pulumi preview --refresh` as exactly that input, and `pulumi up --refresh` puts the declared value back.
 * Then the diff semantics a user relies on: filter lists and planned amounts are sets (order, duplicates and
 * empty lists never plan a change, also after a refresh), `effectiveAmount` is an output that moves with the
 * period and never plans one, and a report's webhook is a secret in state like an alert's.
 */
import { AlertInput, ReportInput, type BudgetAlert, type ScheduledReport } from "@cloudcost/api";
import type { PulumiStack } from "@cloudcost/testkit";
import { z } from "zod";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, changedInputs, changes, nameOf, useEngineFixture, type Declared } from "./support";

const f = useEngineFixture();

type Json = Record<string, unknown>;

/** What the API takes back for an object it answered (server fields dropped), to write it as a portal user would. */
const alertBody = (a: BudgetAlert) => z.object(AlertInput.shape).parse(a);
const reportBody = (r: ScheduledReport) => z.object(ReportInput.shape).parse(r);

const ALERT_BASE: Json = { name: "Issue 27 alert", amount: 1000, recipients: ["finops@example.com"] };
const REPORT_BASE: Json = {
  name: "Issue 27 report",
  report: "summary",
  schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
  recipients: ["finops@example.com"],
};

/** The first day of the month `offset` months from the organization's clock (the sandbox runs on real time here). */
function monthStart(offset: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

/** Each new input: the declared value, and the value someone sets through the API behind Pulumi's back. */
const ALERT_FIELDS: Record<string, { declared: unknown; drifted: unknown }> = {
  filters: { declared: { services: ["Amazon EC2"], regions: ["us-east-1"] }, drifted: { services: ["Amazon S3"] } },
  thresholds: {
    declared: [
      { amount: 900, basis: "actual" },
      { percent: 80, basis: "forecast", recipients: ["oncall@example.com"] },
    ],
    drifted: [
      { amount: 950, basis: "actual" },
      { percent: 80, basis: "forecast" },
    ],
  },
  plannedAmounts: { declared: [{ periodStart: monthStart(1), amount: 1500 }], drifted: [{ periodStart: monthStart(1), amount: 1600 }] },
  autoAdjust: { declared: { lookbackPeriods: 3 }, drifted: { lookbackPeriods: 6 } },
  startDate: { declared: monthStart(-1), drifted: monthStart(0) },
  endDate: { declared: monthStart(12), drifted: monthStart(6) },
};
const REPORT_FIELDS: Record<string, { declared: unknown; drifted: unknown }> = {
  filters: { declared: { providers: ["aws"] }, drifted: { providers: ["azure"] } },
  webhookUrl: { declared: "https://hooks.example.com/feed/declared", drifted: "https://hooks.example.com/feed/drifted" },
  report: { declared: "budget_status", drifted: "summary" },
};

async function declare(stack: PulumiStack, resources: Declared[]): Promise<void> {
  await stack.setConfigObject(DECLARED_RESOURCES, resources);
}

async function subjectId(stack: PulumiStack): Promise<string> {
  const [subject] = (await stack.exportState()).deployment.resources!.filter((r) => nameOf(r.urn) === "subject");
  return subject!.id!;
}

/** Inputs the CLI prints as `[secret]` in a preview digest, old and new alike: their change is not visible there. */
const SECRET_INPUTS = ["webhookUrl"];

/**
 * `preview --refresh` plans exactly one update, of the subject, changing exactly FIELD from the drifted value
 * (for a secret, no other input: the digest shows both values as `[secret]`; the restore below proves which).
 */
async function expectDriftOf(stack: PulumiStack, field: string): Promise<void> {
  const { code, digest } = await stack.previewJson(["--refresh"]);
  expect(code).toBe(0);
  const planned = changes(digest);
  expect(planned.map((s) => [s.op, nameOf(s.urn)])).toEqual([["update", "subject"]]);
  expect(changedInputs(planned[0]!)).toEqual(SECRET_INPUTS.includes(field) ? [] : [field]);
}

describe.each([
  { kind: "BudgetAlert" as const, base: ALERT_BASE, fields: ALERT_FIELDS },
  { kind: "ScheduledReport" as const, base: REPORT_BASE, fields: REPORT_FIELDS },
])("$kind: a change behind Pulumi's back to each new input", ({ kind, base, fields }) => {
  let stack: PulumiStack;
  beforeAll(async () => {
    stack = await f.stack(DECLARED_PROGRAM, `drift-${kind}`);
  }, 120_000);
  afterAll(async () => {
    await stack?.destroy();
  }, 300_000);

  const get = (id: string) => (kind === "BudgetAlert" ? f.api.getAlert(id) : f.api.getReport(id)) as Promise<Json>;
  const put = async (id: string, field: string, value: unknown) => {
    if (kind === "BudgetAlert") await f.api.replaceAlert(id, { ...alertBody(await f.api.getAlert(id)), [field]: value } as never);
    else await f.api.replaceReport(id, { ...reportBody(await f.api.getReport(id)), [field]: value } as never);
  };

  it.each(Object.keys(fields))(
    "%s: shows in `preview --refresh` as that input alone, and `up --refresh` restores it",
    async (field) => {
      const { declared, drifted } = fields[field]!;
      await declare(stack, [{ kind, name: "subject", inputs: { ...base, [field]: declared } }]);
      expect((await stack.up()).code).toBe(0);
      const id = await subjectId(stack);
      const restored = (await get(id))[field];

      await put(id, field, drifted);
      expect((await get(id))[field]).not.toEqual(restored);
      await expectDriftOf(stack, field);

      expect((await stack.up(["--refresh"])).code).toBe(0);
      expect((await get(id))[field]).toEqual(restored);
      const { digest } = await stack.previewJson(["--refresh"]);
      expect(changes(digest)).toEqual([]);
    },
    300_000,
  );
});

describe("set semantics and computed outputs, judged by the engine", () => {
  let stack: PulumiStack;
  beforeAll(async () => {
    stack = await f.stack(DECLARED_PROGRAM, "sets");
  }, 120_000);
  afterAll(async () => {
    await stack?.destroy();
  }, 300_000);

  it("filter lists, tag values and planned amounts reordered, duplicated or empty plan no change, before or after a refresh", async () => {
    const declared = (filters: Json, plannedAmounts: Json[]): Declared[] => [
      { kind: "BudgetAlert", name: "subject", inputs: { ...ALERT_BASE, filters, plannedAmounts } },
    ];
    const planned = [
      { periodStart: monthStart(2), amount: 1200 },
      { periodStart: monthStart(1), amount: 1100 },
    ];
    await declare(stack, declared({ regions: ["us-east-1", "eu-west-1"], services: [], accountIds: [] }, planned));
    expect((await stack.up()).code).toBe(0);
    for (const args of [[], ["--refresh"]]) expect(changes((await stack.previewJson(args)).digest)).toEqual([]);

    await declare(stack, declared({ regions: ["eu-west-1", "us-east-1", "eu-west-1"], tags: [] }, [...planned].reverse()));
    for (const args of [[], ["--refresh"]]) expect(changes((await stack.previewJson(args)).digest)).toEqual([]);

    // Vantage #151's failure designed out: no filter at all, declared as `{}` or as empty lists, is one value.
    await declare(stack, declared({}, []));
    expect((await stack.up()).code).toBe(0);
    await declare(stack, declared({ services: [], regions: [], tags: [] }, []));
    for (const args of [[], ["--refresh"]]) expect(changes((await stack.previewJson(args)).digest)).toEqual([]);
  }, 300_000);

  it("effectiveAmount moves with the period (a planned amount starts) and never plans a change", async () => {
    const next = monthStart(1);
    await declare(stack, [
      { kind: "BudgetAlert", name: "subject", inputs: { ...ALERT_BASE, plannedAmounts: [{ periodStart: next, amount: 2500 }] } },
    ]);
    expect((await stack.up()).code).toBe(0);
    const id = await subjectId(stack);
    expect((await f.api.getAlert(id)).effectiveAmount).toBe(1000);

    // The organization's clock into next month: the planned amount is now this period's budget.
    const moved = await fetch(`${f.sandbox.origin}/sandbox/v1/clock`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.token}`, "content-type": "application/json" },
      body: JSON.stringify({ now: `${next}T12:00:00Z` }),
    });
    expect(moved.status).toBe(200);
    expect((await f.api.getAlert(id)).effectiveAmount).toBe(2500);

    const { code, digest } = await stack.previewJson(["--refresh"]);
    expect(code).toBe(0);
    expect(changes(digest)).toEqual([]);
    expect((await stack.refresh()).code).toBe(0);
    const [subject] = (await stack.exportState()).deployment.resources!.filter((r) => nameOf(r.urn) === "subject");
    expect(subject!.outputs!.effectiveAmount).toBe(2500);
    expect(subject!.outputs!.effectiveAmountSource).toBe("planned");
    expect(subject!.inputs).not.toHaveProperty("effectiveAmount");
  }, 300_000);

  it("keeps a report's webhook URL encrypted in state, input and output, like an alert's", async () => {
    const hook = "https://hooks.example.com/feed/very-secret-path";
    await declare(stack, [{ kind: "ScheduledReport", name: "feed", inputs: { ...REPORT_BASE, recipients: [], webhookUrl: hook } }]);
    expect((await stack.up()).code).toBe(0);
    // The report's own state (the fixture's stack config, which declares it, is plain text by design).
    const [stored] = (await stack.exportState()).deployment.resources!.filter((r) => nameOf(r.urn) === "feed");
    expect(JSON.stringify(stored)).not.toContain("very-secret-path");
    expect(stored!.inputs!.webhookUrl).toHaveProperty("ciphertext");
    expect(stored!.outputs!.webhookUrl).toHaveProperty("ciphertext");
    const [feed] = (await stack.exportState({ showSecrets: true })).deployment.resources!.filter((r) => nameOf(r.urn) === "feed");
    // Shown with --show-secrets as the engine's secret envelope around the plaintext: the value is the one declared.
    const shown = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(hook) };
    expect(feed!.outputs!.webhookUrl).toEqual(shown);
    expect(feed!.inputs!.webhookUrl).toEqual(shown);
  }, 300_000);
});
