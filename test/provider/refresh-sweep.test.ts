/**
 * The class sweep of issue 13 items 1–2: for EVERY input of every kind, a resource that sets it (values
 * drawn by fast-check, spelled the way users write them: unsorted sets, mixed case, float noise) goes
 * through create → refresh → refresh → up → up with `ignoreChanges` on that input, under the engine rules
 * of testkit/src/engine.ts. Neither refresh may change the stored inputs or outputs, neither `up` may
 * produce anything but a Same step, and the object on the service must not change (`updatedAt`).
 *
 * Bounded: two drawn values per input (fast-check, seed 13), each its own resource — a subject. The subjects
 * of a kind are independent objects, so they share one stack: one create, two refreshes and two `up`s per
 * kind, asserted per subject (a provider host per operation, as the CLI starts them, instead of one per
 * subject per operation). The two refreshes read both ways a Read can take (provider/src/runtime/
 * refresh-listing.ts): the first from the kind's listing, as a stack of many resources is refreshed; in the
 * second the list endpoint is refused, so every subject is read with its own `GET /{kind}/{id}`, as a lone
 * resource is. A loopback proxy in front of the sandbox counts what each refresh sent.
 */
import fc from "fast-check";
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { BudgetAlert, CloudGroup, ScheduledReport, type ResourceKind } from "@cloudcost/pulumi";
import type * as pulumi from "@pulumi/pulumi";
import { Engine, secret, holdSandboxDay, startSandbox, type RefreshResult, type RunningSandbox, type StepRecord } from "@cloudcost/testkit";
import { startCountingProxy, type CountingProxy, type Seen } from "../proof/support/counting-proxy";

type Json = Record<string, unknown>;

let sandbox: RunningSandbox;
let proxy: CountingProxy;
/** While set, the proxy refuses every list request (`GET /{kind}?…`): each Read takes its own GET. */
let refuseLists = false;
let token: string;
let api: CloudCostClient;
let aws: string[];
let azure: string[];
let scopeGroup: string;
const engines: Engine[] = [];
let serial = 0;
const unique = (label: string) => `${label} ${++serial}`;

beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startCountingProxy(sandbox.origin, undefined, (method, url) =>
    refuseLists && method === "GET" && /^\/api\/v1\/(groups|alerts|reports)(\?|$)/.test(url)
      ? { status: 400, title: "list refused by the test" }
      : undefined,
  );
  token = await sandbox.token("read,write");
  await holdSandboxDay(sandbox, token);
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  const accounts = [];
  for await (const a of api.listAccounts()) accounts.push(a);
  aws = accounts.filter((a) => a.provider === "aws").map((a) => a.accountId);
  azure = accounts.filter((a) => a.provider === "azure").map((a) => a.accountId);
  scopeGroup = (await api.createGroup({ name: "Sweep scope" })).id;
});
afterAll(async () => {
  for (const e of engines) await e.stop();
  await proxy?.close();
  await sandbox?.dispose();
  await closeAllPools();
});

interface KindSpec {
  /** The required inputs, for a fresh object. */
  base: () => Json;
  /** Each input with the values a user might write for it. */
  fields: Record<string, fc.Arbitrary<unknown>>;
  declare: (name: string, inputs: Json, opts: pulumi.CustomResourceOptions) => pulumi.CustomResource;
  /** An object made outside Pulumi, to adopt. */
  existing: () => Promise<string>;
  updatedAt: (id: string) => Promise<string>;
}

const KINDS: Record<ResourceKind, KindSpec> = {
  CloudGroup: {
    base: () => ({ name: unique("Sweep group") }),
    fields: {
      name: fc.constantFrom("  Padded name  ", "Ünïcode Grüppe").map((n) => `${n} ${++serial}`),
      description: fc.constantFrom("Platform teams", ""),
      azureSubscriptionIds: fc
        .constantFrom(
          () => [azure[0]!.toUpperCase(), azure[0]!],
          () => [...azure].reverse(),
        )
        .map((f) => f()),
      awsAccountIds: fc
        .constantFrom(
          () => [...aws].reverse(),
          () => [aws[0]!, aws[0]!],
        )
        .map((f) => f()),
      adoptId: fc.constant("adopt"),
    },
    declare: (name, inputs, opts) => new CloudGroup(name, inputs as never, opts),
    existing: async () => (await api.createGroup({ name: unique("Made in the portal") })).id,
    updatedAt: async (id) => (await api.getGroup(id)).updatedAt,
  },
  BudgetAlert: {
    base: () => ({ name: unique("Sweep alert"), amount: 100 }),
    fields: {
      name: fc.constantFrom("  Padded budget  ", "Ünïcode Budget"),
      amount: fc.constantFrom(0.1 + 0.2, 1234.5, 1_000_000),
      currency: fc.constantFrom("EUR", "JPY"),
      period: fc.constantFrom("quarterly", "annual"),
      groupId: fc.constant("scope"),
      thresholds: fc.constantFrom(
        [
          { percent: 90, basis: "forecast" },
          { percent: 80, basis: "actual" },
        ],
        [
          { percent: 100, basis: "actual" },
          { percent: 100, basis: "actual" },
          { percent: 50, basis: "forecast" },
        ],
      ),
      recipients: fc.constantFrom(["B@Example.com", "a@example.com", "a@example.com"], [" x@corp.dev "]),
      thresholdsRouted: fc.constantFrom(
        [
          { amount: 80.5, basis: "actual", recipients: ["B@Example.com", "b@example.com"] },
          { percent: 100, basis: "forecast", recipients: [] },
        ],
        [{ percent: 100, basis: "actual", recipients: null }],
      ),
      webhookUrl: fc.constantFrom("https://hooks.example.com/services/sweep", "http://localhost:9000/hook"),
      enabled: fc.constant(false),
      // Issue 27: sets spelled unsorted, duplicated and with empty lists; money with float noise.
      filters: fc.constantFrom(
        { services: ["Amazon S3", "Amazon EC2", "Amazon EC2"], regions: [], accountIds: ["111122223333"] },
        {
          tags: [
            { key: "team", values: ["web", "data", "web"] },
            { key: "env", values: ["prod"] },
          ],
          providers: ["aws"],
        },
        { services: [], tags: [] },
      ),
      plannedAmounts: fc.constantFrom(
        [
          { periodStart: "2027-03-01", amount: 0.1 + 0.2 },
          { periodStart: "2027-01-01", amount: 1200 },
        ],
        [],
      ),
      autoAdjust: fc.constantFrom({ lookbackPeriods: 3 }, null),
      startDate: fc.constantFrom("2026-01-15", "2020-02-29"),
      endDate: fc.constantFrom("2030-12-31"),
      adoptId: fc.constant("adopt"),
    },
    declare: (name, inputs, opts) => new BudgetAlert(name, inputs as never, opts),
    existing: async () =>
      (
        await api.createAlert({
          name: unique("Portal alert"),
          amount: 5,
          currency: "USD",
          period: "monthly",
          thresholds: [{ percent: 100, basis: "actual" }],
        })
      ).id,
    updatedAt: async (id) => (await api.getAlert(id)).updatedAt,
  },
  ScheduledReport: {
    base: () => ({
      name: unique("Sweep report"),
      report: "summary",
      schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
      recipients: ["a@example.com"],
    }),
    fields: {
      name: fc.constantFrom("  Padded report  ", "Ünïcode Bericht"),
      report: fc.constantFrom("services", "forecast"),
      groupId: fc.constant("scope"),
      schedule: fc.constantFrom(
        { frequency: "weekly", dayOfWeek: "friday", time: "17:00", timezone: "Europe/Berlin" },
        { frequency: "monthly", dayOfMonth: 31, time: "06:30", timezone: "America/New_York" },
      ),
      format: fc.constant("pdf"),
      recipients: fc.constantFrom(["B@Example.com", "a@example.com", "a@example.com"], [" x@corp.dev "]),
      enabled: fc.constant(false),
      filters: fc.constantFrom({ regions: ["westeurope", "eu-west-1", "eu-west-1"], services: [] }, {}),
      webhookUrl: fc.constantFrom("https://hooks.example.com/feed", "http://127.0.0.1:9000/feed"),
      adoptId: fc.constant("adopt"),
    },
    declare: (name, inputs, opts) => new ScheduledReport(name, inputs as never, opts),
    existing: async () =>
      (
        await api.createReport({
          name: unique("Portal report"),
          report: "daily",
          schedule: { frequency: "daily", time: "10:00", timezone: "UTC" },
          recipients: ["p@example.com"],
        })
      ).id,
    updatedAt: async (id) => (await api.getReport(id)).updatedAt,
  },
};

/** One resource of the sweep: an input of its kind set to one drawn value. */
interface Subject {
  field: string;
  /** The input set: `thresholdsRouted` is a second set of values for `thresholds` (issue 27). */
  input: string;
  name: string;
  inputs: Json;
}

/** The subjects of a kind: per input, the two values fast-check draws for it (seed 13, as `fc.assert` would). */
async function subjectsOf(kind: ResourceKind): Promise<Subject[]> {
  const spec = KINDS[kind];
  const subjects: Subject[] = [];
  for (const [field, values] of Object.entries(spec.fields)) {
    for (const [n, drawn] of fc.sample(values, { numRuns: 2, seed: 13 }).entries()) {
      let value = drawn;
      if (value === "scope") value = scopeGroup;
      if (value === "adopt") value = await spec.existing();
      const input = field === "thresholdsRouted" ? "thresholds" : field;
      subjects.push({ field, input, name: `sweep-${field}-${n}`, inputs: { ...spec.base(), [input]: value } });
    }
  }
  return subjects;
}

/** A refresh's requests to the service: GETs of one object, and pages of a kind's listing. */
function requests(seen: Seen[]): { gets: number; lists: number } {
  const routes = seen.filter((s) => s.method === "GET").map((s) => s.path.replace(/^\/api\/v1/, ""));
  return {
    gets: routes.filter((r) => /^\/(groups|alerts|reports)\/[^/]+$/.test(r)).length,
    lists: routes.filter((r) => /^\/(groups|alerts|reports)$/.test(r)).length,
  };
}

describe.each(Object.keys(KINDS) as ResourceKind[])("%s", (kind) => {
  const spec = KINDS[kind];
  let subjects: Subject[] = [];
  /** Per subject name: its id, `updatedAt` after create, and after the two refreshes and the two `up`s. */
  const seen = new Map<string, { id: string; created: string; after: string }>();
  const refreshes: { results: RefreshResult[]; sent: { gets: number; lists: number } }[] = [];
  const ups: StepRecord[][] = [];
  let engine: Engine;

  beforeAll(async () => {
    engine = new Engine({ config: { "cloudcost:apiUrl": `${proxy.origin}/api/v1`, "cloudcost:apiToken": secret(token) } });
    engines.push(engine);
    subjects = await subjectsOf(kind);
    const program = (ignore: boolean) => () =>
      subjects.map((s) => spec.declare(s.name, s.inputs, ignore ? { ignoreChanges: [s.input] } : {}));
    await engine.runProgram(program(false));
    for (const s of subjects) {
      const id = engine.state.get(engine.urnOf(`pulumi-nodejs:dynamic/cloudcost:${kind}`, s.name))?.id;
      if (id) seen.set(s.name, { id, created: await spec.updatedAt(id), after: "" });
    }
    for (const refuse of [false, true]) {
      refuseLists = refuse;
      const mark = proxy.seen.length;
      try {
        refreshes.push({ results: await engine.refresh(), sent: requests(proxy.since(mark)) });
      } finally {
        refuseLists = false;
      }
    }
    ups.push((await engine.runProgram(program(false))).steps);
    ups.push((await engine.runProgram(program(true))).steps);
    for (const entry of seen.values()) entry.after = await spec.updatedAt(entry.id);
  });
  afterAll(async () => {
    await engine?.destroy();
  });

  it("the first refresh reads the kind from its listing, the second with one GET per resource", () => {
    // The first Read of a kind takes its own GET, the second starts the listing (one page: fewer than 200).
    expect(refreshes.map((r) => r.sent)).toEqual([
      { gets: 1, lists: 1 },
      { gets: subjects.length, lists: 1 },
    ]);
  });

  it.each(Object.keys(spec.fields))(
    "%s: create → refresh → refresh → up → up with ignoreChanges: no diff, no change on the service",
    (field) => {
      const mine = subjects.filter((s) => s.field === field);
      expect(mine).toHaveLength(2);
      for (const s of mine) {
        const urn = engine.urnOf(`pulumi-nodejs:dynamic/cloudcost:${kind}`, s.name);
        const object = seen.get(s.name);
        expect({ subject: s.name, created: object !== undefined }).toEqual({ subject: s.name, created: true });
        for (const { results } of refreshes)
          expect({ subject: s.name, refresh: results.filter((r) => r.urn === urn) }).toEqual({
            subject: s.name,
            refresh: [{ urn, gone: false, inputsChanged: false, outputsChanged: false }],
          });
        for (const steps of ups)
          expect({ subject: s.name, steps: steps.filter((r) => r.urn === urn).map((r) => r.op) }).toEqual({
            subject: s.name,
            steps: ["same"],
          });
        expect({ subject: s.name, updatedAt: object!.after }).toEqual({ subject: s.name, updatedAt: object!.created });
      }
    },
  );
});
