/**
 * Issue 27's fields through the real Pulumi CLI. For every new input of BudgetAlert and ScheduledReport: a
 * change made behind Pulumi's back (through the API, as the portal or a script would) shows in
 * `pulumi preview --refresh` as exactly that input, and `pulumi up --refresh` puts the declared value back.
 * Then the diff semantics a user relies on: filter lists and planned amounts are sets (order, duplicates and
 * empty lists never plan a change, also after a refresh), `effectiveAmount` is an output that moves with the
 * period and never plans one, and a report's webhook is a secret in state like an alert's.
 *
 * Every case is its own object in ONE stack, so one CLI run serves them all (issue 39: each CLI start costs
 * a CPU second or two): `beforeAll` walks the stack through its phases and keeps what each case needs, and
 * each case asserts on its own object only, so it still reports by name and fails on its own.
 */
import { AlertInput, ReportInput, type BudgetAlert, type ScheduledReport } from "@cloudcost/api";
import type { PreviewDigest, PreviewStep, PulumiStack, StateResource } from "@cloudcost/testkit";
import { z } from "zod";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, changedInputs, changes, nameOf, useEngineFixture, type Declared } from "./support";

const f = useEngineFixture();

type Json = Record<string, unknown>;
type DriftKind = "BudgetAlert" | "ScheduledReport";

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
const DRIFT_KINDS = [
  { kind: "BudgetAlert" as const, base: ALERT_BASE, fields: ALERT_FIELDS },
  { kind: "ScheduledReport" as const, base: REPORT_BASE, fields: REPORT_FIELDS },
];

/** Inputs the CLI prints as `[secret]` in a preview digest, old and new alike: their change is not visible there. */
const SECRET_INPUTS = ["webhookUrl"];

/** The subject of one drift case: its own object, named for its kind and input. */
const driftSubject = (kind: DriftKind, field: string): string => `drift-${kind}-${field}`;

/** One subject per drift case, each with only its input set to the declared value (and a name of its own). */
const driftDeclared: Declared[] = DRIFT_KINDS.flatMap(({ kind, base, fields }) =>
  Object.entries(fields).map(([field, { declared }]): Declared => {
    const inputs = { ...base, name: `${base.name as string} (${field})`, [field]: declared };
    return { kind, name: driftSubject(kind, field), inputs };
  }),
);

/** The set-semantics subjects: `sets` (lists reordered and duplicated), `empty` (no filter, two spellings). */
const PLANNED = [
  { periodStart: monthStart(2), amount: 1200 },
  { periodStart: monthStart(1), amount: 1100 },
];
const setsSubject = (filters: Json, plannedAmounts: Json[]): Declared => ({
  kind: "BudgetAlert",
  name: "sets",
  inputs: { ...ALERT_BASE, name: "Issue 27 alert (sets)", filters, plannedAmounts },
});
const emptySubject = (filters: Json, plannedAmounts: Json[]): Declared => ({
  kind: "BudgetAlert",
  name: "empty",
  inputs: { ...ALERT_BASE, name: "Issue 27 alert (empty)", filters, plannedAmounts },
});
const SETS_FIRST = setsSubject({ regions: ["us-east-1", "eu-west-1"], services: [], accountIds: [] }, PLANNED);
const SETS_REORDERED = setsSubject({ regions: ["eu-west-1", "us-east-1", "eu-west-1"], tags: [] }, [...PLANNED].reverse());
// Vantage #151's failure designed out: no filter at all, declared as `{}` or as empty lists, is one value.
const EMPTY_FIRST = emptySubject({ regions: ["us-east-1"] }, PLANNED);
const EMPTY_AS_OBJECT = emptySubject({}, []);
const EMPTY_AS_LISTS = emptySubject({ services: [], regions: [], tags: [] }, []);

const NEXT_MONTH = monthStart(1);
const EFFECTIVE: Declared = {
  kind: "BudgetAlert",
  name: "effective",
  inputs: { ...ALERT_BASE, name: "Issue 27 alert (effective)", plannedAmounts: [{ periodStart: NEXT_MONTH, amount: 2500 }] },
};
const HOOK = "https://hooks.example.com/feed/very-secret-path";
const FEED: Declared = {
  kind: "ScheduledReport",
  name: "feed",
  inputs: { ...REPORT_BASE, name: "Issue 27 report (feed)", recipients: [], webhookUrl: HOOK },
};

/** The planned changes of a preview for the resource named NAME. */
const plannedFor = (digest: PreviewDigest, name: string): PreviewStep[] => changes(digest).filter((s) => nameOf(s.urn) === name);
const byName = (resources: StateResource[] | undefined, name: string) => resources?.find((r) => nameOf(r.urn) === name);

/** What the stack's CLI runs showed, kept for the cases to judge (each run's exit code with it). */
interface Seen {
  firstUp: number;
  ids: Map<string, string>;
  /** Per drift subject: the value the API held after `up`, right after the change behind Pulumi's back, after the restore. */
  drift: Map<string, { restored: unknown; drifted: unknown; after: unknown }>;
  /** Phase 1 (first declarations, just deployed), `preview` and — after the drift — `preview --refresh`. */
  settledPreview: Awaited<ReturnType<PulumiStack["previewJson"]>>;
  driftPreview: Awaited<ReturnType<PulumiStack["previewJson"]>>;
  /** Phase 2: `up --refresh` (restores the drift; `empty` updated from filters and planned amounts to `{}` and `[]`). */
  restoreUp: number;
  /** Phase 3: `sets` reordered, `empty` as empty lists; `preview`, `preview --refresh`. */
  reorderedPreviews: Awaited<ReturnType<PulumiStack["previewJson"]>>[];
  /** The state as exported after the first `up`, plain and with secrets shown. */
  state: StateResource[];
  shownState: StateResource[];
  /** effectiveAmount before and after the organization's clock moved into next month; then preview, refresh, state. */
  effectiveBefore: number;
  effectiveAfter: number;
  clockStatus: number;
  movedPreview: Awaited<ReturnType<PulumiStack["previewJson"]>>;
  refreshed: number;
  refreshedState: StateResource[];
}

describe("issue 27's fields through the engine, one subject per case in one stack", () => {
  let stack: PulumiStack;
  const seen = { ids: new Map(), drift: new Map() } as Seen;
  const get = (kind: DriftKind, id: string) => (kind === "BudgetAlert" ? f.api.getAlert(id) : f.api.getReport(id)) as Promise<Json>;
  const put = async (kind: DriftKind, id: string, field: string, value: unknown) => {
    if (kind === "BudgetAlert") await f.api.replaceAlert(id, { ...alertBody(await f.api.getAlert(id)), [field]: value } as never);
    else await f.api.replaceReport(id, { ...reportBody(await f.api.getReport(id)), [field]: value } as never);
  };
  const declare = (resources: Declared[]) => stack.setConfigObject(DECLARED_RESOURCES, resources);

  beforeAll(async () => {
    stack = await f.stack(DECLARED_PROGRAM, "issue-27");
    // Phase 1: every subject deployed with its first declaration.
    await declare([...driftDeclared, SETS_FIRST, EMPTY_FIRST, EFFECTIVE, FEED]);
    seen.firstUp = (await stack.up()).code;
    seen.state = (await stack.exportState()).deployment.resources ?? [];
    seen.shownState = (await stack.exportState({ showSecrets: true })).deployment.resources ?? [];
    for (const r of seen.state) if (r.id) seen.ids.set(nameOf(r.urn), r.id);
    seen.settledPreview = await stack.previewJson();
    seen.effectiveBefore = (await f.api.getAlert(seen.ids.get("effective")!)).effectiveAmount as number;

    // Each drift subject's input changed behind Pulumi's back, then previewed with a refresh.
    for (const { kind, fields } of DRIFT_KINDS) {
      for (const [field, { drifted }] of Object.entries(fields)) {
        const id = seen.ids.get(driftSubject(kind, field));
        if (!id) continue;
        const restored = (await get(kind, id))[field];
        await put(kind, id, field, drifted);
        seen.drift.set(driftSubject(kind, field), { restored, drifted: (await get(kind, id))[field], after: undefined });
      }
    }
    seen.driftPreview = await stack.previewJson(["--refresh"]);

    // Phase 2: `up --refresh` puts the declared values back; `empty` is updated to no filter, written as `{}`.
    await declare([...driftDeclared, SETS_FIRST, EMPTY_AS_OBJECT, EFFECTIVE, FEED]);
    seen.restoreUp = (await stack.up(["--refresh"])).code;
    for (const { kind, fields } of DRIFT_KINDS) {
      for (const field of Object.keys(fields)) {
        const entry = seen.drift.get(driftSubject(kind, field));
        if (entry) entry.after = (await get(kind, seen.ids.get(driftSubject(kind, field))!))[field];
      }
    }

    // Phase 3, previews only (an `up` would hide what they plan): `sets` reordered and duplicated, `empty` as empty lists.
    await declare([...driftDeclared, SETS_REORDERED, EMPTY_AS_LISTS, EFFECTIVE, FEED]);
    seen.reorderedPreviews = [await stack.previewJson(), await stack.previewJson(["--refresh"])];

    // The organization's clock into next month: `effective`'s planned amount is now this period's budget.
    const moved = await fetch(`${f.sandbox.origin}/sandbox/v1/clock`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.token}`, "content-type": "application/json" },
      body: JSON.stringify({ now: `${NEXT_MONTH}T12:00:00Z` }),
    });
    seen.clockStatus = moved.status;
    seen.effectiveAfter = (await f.api.getAlert(seen.ids.get("effective")!)).effectiveAmount as number;
    seen.movedPreview = await stack.previewJson(["--refresh"]);
    seen.refreshed = (await stack.refresh()).code;
    seen.refreshedState = (await stack.exportState()).deployment.resources ?? [];
  });
  afterAll(async () => {
    await stack?.destroy();
  });

  describe.each(DRIFT_KINDS)("$kind: a change behind Pulumi's back to each new input", ({ kind, fields }) => {
    it.each(Object.keys(fields))("%s: shows in `preview --refresh` as that input alone, and `up --refresh` restores it", (field) => {
      const name = driftSubject(kind, field);
      expect(seen.firstUp).toBe(0);
      const drift = seen.drift.get(name);
      expect(drift).toBeDefined();
      expect(drift!.drifted).not.toEqual(drift!.restored);

      expect(seen.driftPreview.code).toBe(0);
      const planned = plannedFor(seen.driftPreview.digest, name);
      expect(planned.map((s) => s.op)).toEqual(["update"]);
      // A secret's old and new values are both `[secret]` in the digest: no other input changes; the restore proves which.
      expect(changedInputs(planned[0]!)).toEqual(SECRET_INPUTS.includes(field) ? [] : [field]);

      expect(seen.restoreUp).toBe(0);
      expect(drift!.after).toEqual(drift!.restored);
      const [, refreshed] = seen.reorderedPreviews;
      expect(refreshed!.code).toBe(0);
      expect(plannedFor(refreshed!.digest, name)).toEqual([]);
    });
  });

  describe("set semantics and computed outputs, judged by the engine", () => {
    it("a change behind Pulumi's back plans an update of the changed object only", () => {
      const subjects = [...seen.drift.keys()].sort();
      expect(subjects).toHaveLength(driftDeclared.length);
      expect(
        changes(seen.driftPreview.digest)
          .map((s) => `${s.op} ${nameOf(s.urn)}`)
          .sort(),
      ).toEqual(subjects.map((name) => `update ${name}`));
    });

    it("filter lists, tag values and planned amounts reordered, duplicated or empty plan no change, before or after a refresh", () => {
      expect(seen.firstUp).toBe(0);
      // As deployed: `preview`, then `preview --refresh` (the one that also saw the drift of the other subjects).
      for (const { code, digest } of [seen.settledPreview, seen.driftPreview]) {
        expect(code).toBe(0);
        expect(plannedFor(digest, "sets")).toEqual([]);
        expect(plannedFor(digest, "empty")).toEqual([]);
      }
      // Reordered and duplicated; no filter deployed as `{}` and declared as empty lists.
      expect(seen.restoreUp).toBe(0);
      for (const { code, digest } of seen.reorderedPreviews) {
        expect(code).toBe(0);
        expect(plannedFor(digest, "sets")).toEqual([]);
        expect(plannedFor(digest, "empty")).toEqual([]);
      }
    });

    it("effectiveAmount moves with the period (a planned amount starts) and never plans a change", () => {
      expect(seen.effectiveBefore).toBe(1000);
      expect(seen.clockStatus).toBe(200);
      expect(seen.effectiveAfter).toBe(2500);
      expect(seen.movedPreview.code).toBe(0);
      expect(plannedFor(seen.movedPreview.digest, "effective")).toEqual([]);
      expect(seen.refreshed).toBe(0);
      const subject = byName(seen.refreshedState, "effective");
      expect(subject!.outputs!.effectiveAmount).toBe(2500);
      expect(subject!.outputs!.effectiveAmountSource).toBe("planned");
      expect(subject!.inputs).not.toHaveProperty("effectiveAmount");
    });

    it("keeps a report's webhook URL encrypted in state, input and output, like an alert's", () => {
      expect(seen.firstUp).toBe(0);
      // The report's own state (the fixture's stack config, which declares it, is plain text by design).
      const stored = byName(seen.state, "feed");
      expect(JSON.stringify(stored)).not.toContain("very-secret-path");
      expect(stored!.inputs!.webhookUrl).toHaveProperty("ciphertext");
      expect(stored!.outputs!.webhookUrl).toHaveProperty("ciphertext");
      const feed = byName(seen.shownState, "feed");
      // Shown with --show-secrets as the engine's secret envelope around the plaintext: the value is the one declared.
      const shown = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(HOOK) };
      expect(feed!.outputs!.webhookUrl).toEqual(shown);
      expect(feed!.inputs!.webhookUrl).toEqual(shown);
    });
  });
});
