/**
 * The harness judged by the engine (issue 25): for each engine rule testkit's engine stand-in mirrors
 * (testkit/README.md, "Rules"), one scenario runs the same program (fixtures/harness-agrees, varied by stack
 * config) through testkit's `Engine` and through the real Pulumi CLI, each against a sandbox of its own, and
 * the two must agree on every command: the steps (op per resource), the diffs (changed input keys), the
 * policy verdicts, whether the command succeeded, and the state after it (inputs and outputs per resource,
 * with secrets marked; URNs, ids and timestamps aside, resources compared by name). Where they disagree the
 * engine is right and the harness is what gets fixed; the README's equivalence table names these tests.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AlertInput, CloudCostClient, closeAllPools } from "@cloudcost/api";
import {
  Engine,
  PolicyViolation,
  secret,
  startPolicyPack,
  holdSandboxDay,
  startSandbox,
  type Diagnostic,
  type PolicyPackConfigFile,
  type PulumiStack,
  type RunningPolicyPack,
  type RunningSandbox,
  type StepRecord,
} from "@cloudcost/testkit";
import * as pulumi from "@pulumi/pulumi";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { z } from "zod";
import { FIXTURES, POLICY_PACK, startEngineFixture, type EngineFixture } from "./support";

const PROGRAM = join(FIXTURES, "harness-agrees");
/** The fixture's project name (its Pulumi.yaml): the harness runs under the same, so config keys and URNs match. */
const PROJECT = "harness-agrees";
const CLOUDCOST_TYPE = "pulumi-nodejs:dynamic/cloudcost:";
/** An address nothing listens on: a provider configured with it fails on its first request. */
const DEAD_API_URL = "http://127.0.0.1:9/api/v1";

/** One resource the fixture declares (see its index.ts). */
interface Declared {
  kind: "CloudGroup" | "BudgetAlert" | "ScheduledReport";
  name: string;
  args?: Record<string, unknown>;
  opts?: { ignoreChanges?: string[]; deleteBeforeReplace?: boolean; additionalSecretOutputs?: string[] };
  get?: string;
}

/** A resource of the state after a command, comparable across the two sides. */
interface Comparable {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}

/** What one command did, as both sides report it. */
interface Observed {
  ok: boolean;
  /** `op name`, sorted by name; a replace carries its order (`replace g delete-before-create`). */
  steps: string[];
  /** Per resource of an update or replace: the input keys whose value changed. */
  diffs: Record<string, string[]>;
  /** `policy resource level`, sorted. */
  policies: string[];
  state: Record<string, Comparable>;
}

interface RunOptions {
  preview?: boolean;
  /** Resource names to replace (`--target-replace`). */
  replace?: string[];
  /** A `--policy-pack-config` file: the policy pack runs with it. */
  policy?: PolicyPackConfigFile;
}

/** One side of a comparison: the same commands, through the harness or through the CLI. */
interface Side {
  readonly api: CloudCostClient;
  up(resources: Declared[], opts?: RunOptions): Promise<Observed & { message: string }>;
  refresh(): Promise<Observed & { message: string }>;
  destroy(): Promise<Observed & { message: string }>;
  /** Changes the provider's stack config (`pulumi config set cloudcost:apiUrl …`). */
  setProviderConfig(apiUrl: string, token: string): Promise<void>;
  /** Resource name → id in the state. */
  ids(): Promise<Record<string, string>>;
  dispose(): Promise<void>;
}

/**
 * The fixture under the harness, as the Node language host runs it: the stack config set, the module's
 * exported program function called, every registration it started answered (scripts/demo/program.ts
 * `runProgram` does the same for a module that declares at load time).
 */
async function runFixture(config: Record<string, string>): Promise<unknown> {
  pulumi.runtime.setAllConfig(config);
  const program = require(join(PROGRAM, "index.ts")) as () => unknown;
  const exports = program();
  await (require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> }).waitForRPCs();
  return exports;
}

// ---- normalising what each side stores ----

const TIMESTAMPS = new Set(["createdAt", "updatedAt", "nextRunAt", "lastRunAt"]);
const ID = /^(grp|alr|rpt|org)_[0-9a-z]{10,40}$/;

/** Secrets as `{ secret: value }` whichever way a side wrote them; ids as the name of the resource they belong to. */
function normalised(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => normalised(v, names));
  if (typeof value === "string") {
    const m = ID.exec(value);
    return m ? `<${m[1]} ${names.get(value) ?? "id"}>` : value;
  }
  if (value === null || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  if (o[specialSigKey] === specialSecretSig) {
    // The harness: { sig, value }; `stack export --show-secrets`: { sig, plaintext }; an event: { sig, ciphertext }.
    if ("value" in o) return { secret: normalised(o.value, names) };
    if (typeof o.plaintext === "string") return { secret: normalised(JSON.parse(o.plaintext), names) };
    return { secret: "[secret]" };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, normalised(v, names)]));
}

/**
 * `__provider` (the serialized provider, whose text depends on where the program ran) and `__createKey` (a digest
 * of inputs that hold each sandbox's own IDs) kept as markers; timestamps dropped.
 */
function comparableProps(
  props: Record<string, unknown> | undefined,
  names: Map<string, string>,
  maskSecrets = false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (TIMESTAMPS.has(k)) continue;
    out[k] = k === "__provider" ? "<provider>" : k === "__createKey" ? "<create key>" : normalised(v, names);
    if (maskSecrets && isSecretMarked(out[k])) out[k] = { secret: "[secret]" };
  }
  return out;
}
const isSecretMarked = (v: unknown): boolean => v !== null && typeof v === "object" && "secret" in (v as object);

function changedKeys(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((k) => k !== "__provider" && JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k])).sort();
}

const nameOf = (urn: string): string => urn.split("::").pop() ?? urn;
const bySortedName = (steps: { name: string; text: string }[]): string[] =>
  steps.sort((a, b) => a.name.localeCompare(b.name) || a.text.localeCompare(b.text)).map((s) => s.text);

// ---- the harness side ----

let pack: RunningPolicyPack | undefined;
/** One policy-pack process for every harness scenario, reconfigured per command as `--policy-pack-config` would. */
async function harnessPack(config: PolicyPackConfigFile): Promise<RunningPolicyPack> {
  // No forecast source in the pack's environment (the CLI's pack gets its stack config, and the forecast policy is disabled).
  pack ??= await startPolicyPack({ env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
  await pack.configure(config);
  return pack;
}

async function harnessSide(sandbox: RunningSandbox, stack: string): Promise<Side> {
  const token = await sandbox.token("read,write");
  const api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  const providerConfig = (url: string, t: string) => ({ "cloudcost:apiUrl": url, "cloudcost:apiToken": secret(t) });
  const engines: Engine[] = [];
  let config = providerConfig(sandbox.baseUrl, token);
  /** The engine of the stack's last command: a policy pack is an option of the engine, so each `up` gets one with or without. */
  let engine = new Engine({ config, project: PROJECT, stack });
  engines.push(engine);

  const names = () => new Map([...engine.state.values()].map((r) => [r.id, r.name]));
  const state = (): Record<string, Comparable> => {
    const n = names();
    return Object.fromEntries(
      [...engine.state.values()]
        .filter((r) => r.type.startsWith(CLOUDCOST_TYPE))
        .map((r) => [r.name, { inputs: comparableProps(r.inputs, n), outputs: comparableProps(r.outputs, n) }]),
    );
  };
  const stepText = (s: StepRecord) => ({ name: nameOf(s.urn), text: [s.op, nameOf(s.urn), ...(s.order ? [s.order] : [])].join(" ") });
  const verdicts = (ds: Diagnostic[]) => [...new Set(ds.map((d) => `${d.policyName} ${nameOf(d.urn)} ${d.enforcementLevel}`))].sort();

  return {
    api,
    async up(resources, opts = {}) {
      const next = new Engine({ config, project: PROJECT, stack, policyPack: opts.policy ? await harnessPack(opts.policy) : undefined });
      for (const [urn, r] of engine.state) next.state.set(urn, r);
      engines.push(next);
      engine = next;
      const before = state();
      const seen = engine.resources.length;
      try {
        const result = await engine.runProgram(() => runFixture({ [`${PROJECT}:resources`]: JSON.stringify(resources) }), {
          preview: opts.preview,
          replaceTargets: (opts.replace ?? []).map((name) => engine.urnOf(typeOf(resources, name), name)),
        });
        const n = names();
        // The inputs each step ended with (in a preview the state is unchanged: the registrations hold them).
        const after = new Map(engine.resources.slice(seen).map((r) => [r.name, comparableProps(r.inputs, n, opts.preview)]));
        const diffs: Record<string, string[]> = {};
        for (const s of result.steps) {
          if (s.op !== "update" && s.op !== "replace") continue;
          const name = nameOf(s.urn);
          const old = opts.preview ? comparableProps(mask(before[name]?.inputs), n, true) : before[name]?.inputs;
          diffs[name] = changedKeys(old, after.get(name));
        }
        return {
          ok: !result.failed,
          message: "",
          steps: bySortedName(result.steps.filter((s) => s.urn.includes(CLOUDCOST_TYPE)).map(stepText)),
          diffs,
          policies: verdicts(result.diagnostics),
          state: state(),
        };
      } catch (e) {
        const policies = e instanceof PolicyViolation ? verdicts(e.diagnostics) : [];
        return { ok: false, message: String(e), steps: [], diffs: {}, policies, state: state() };
      }
    },
    async refresh() {
      const steps = [...engine.state.values()].filter((r) => r.type.startsWith(CLOUDCOST_TYPE)).map((r) => r.name);
      try {
        await engine.refresh();
        return {
          ok: true,
          message: "",
          steps: bySortedName(steps.map((name) => ({ name, text: `refresh ${name}` }))),
          diffs: {},
          policies: [],
          state: state(),
        };
      } catch (e) {
        return { ok: false, message: String(e), steps: [], diffs: {}, policies: [], state: state() };
      }
    },
    async destroy() {
      const steps = [...engine.state.values()]
        .filter((r) => r.type.startsWith(CLOUDCOST_TYPE))
        .map((r) => ({ name: r.name, text: `${r.external ? "discard" : "delete"} ${r.name}` }));
      try {
        await engine.destroy();
        return {
          ok: true,
          message: "",
          steps: bySortedName(steps),
          diffs: {},
          policies: [],
          state: state(),
        };
      } catch (e) {
        return { ok: false, message: String(e), steps: [], diffs: {}, policies: [], state: state() };
      }
    },
    async setProviderConfig(apiUrl, t) {
      config = providerConfig(apiUrl, t);
      engine.setConfig(config);
    },
    async ids() {
      return Object.fromEntries([...engine.state.values()].map((r) => [r.name, r.id]));
    },
    async dispose() {
      for (const e of engines) await e.stop();
    },
  };
}

/** Secrets of stored inputs masked, as an engine event shows them. */
function mask(props: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return props && Object.fromEntries(Object.entries(props).map(([k, v]) => [k, isSecretMarked(v) ? { secret: "[secret]" } : v]));
}

function typeOf(resources: Declared[], name: string): string {
  const d = resources.find((r) => r.name === name);
  if (!d) throw new Error(`no resource ${name} declared`);
  return `${CLOUDCOST_TYPE}${d.kind}`;
}

// ---- the CLI side ----

interface EngineEvent {
  resourcePreEvent?: { metadata: StepMetadata };
  resOpFailedEvent?: { metadata: StepMetadata };
  policyEvent?: { resourceUrn?: string; policyName: string; enforcementLevel: string };
}
interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { inputs?: Record<string, unknown> } | null;
  new?: { inputs?: Record<string, unknown> } | null;
}

async function cliSide(f: EngineFixture, stackName: string): Promise<Side> {
  const stack: PulumiStack = await f.stack(PROGRAM, stackName, [{ key: "resources", value: "[]" }]);
  const scratch = mkdtempSync(join(tmpdir(), "cloudcost-harness-agrees-"));
  let commands = 0;
  // `pulumi preview --json` prints the engine events as they come, as `up --json` does, instead of one digest.
  f.workspace.env.PULUMI_ENABLE_STREAMING_JSON_PREVIEW = "true";

  type Exported = NonNullable<Awaited<ReturnType<PulumiStack["exportState"]>>["deployment"]["resources"]>;
  /**
   * The state as the last command left it: only a command of this side writes the stack's state (a change
   * through the API or to the stack config does not), so the export after one command is the state before the
   * next, and one `stack export` per command is enough.
   */
  let last: Exported | undefined;
  const exported = async (): Promise<Exported> => (last ??= (await stack.exportState({ showSecrets: true })).deployment.resources ?? []);
  const stateOf = (resources: Awaited<ReturnType<typeof exported>>): Record<string, Comparable> => {
    const names = new Map(resources.filter((r) => r.id).map((r) => [r.id!, nameOf(r.urn)]));
    return Object.fromEntries(
      resources
        .filter((r) => r.custom && r.type.startsWith(CLOUDCOST_TYPE))
        .map((r) => [nameOf(r.urn), { inputs: comparableProps(r.inputs, names), outputs: comparableProps(r.outputs, names) }]),
    );
  };

  /** Runs a command with `--json` (engine events, one a line; a preview streams them too), and reads its steps and policy events. */
  async function observed(args: string[], opts: { preview?: boolean } = {}): Promise<Observed & { message: string }> {
    const beforeResources = await exported();
    const before = stateOf(beforeResources);
    const result = await stack.run([...args, "--json"]);
    last = undefined;
    const events: EngineEvent[] = [];
    for (const line of result.stdout.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        events.push(JSON.parse(line) as EngineEvent);
      } catch {
        // Not an event line.
      }
    }
    const afterResources = await exported();
    const after = stateOf(afterResources);
    const names = new Map([...beforeResources, ...afterResources].filter((r) => r.id).map((r) => [r.id!, nameOf(r.urn)]));
    const ops = new Map<string, StepMetadata[]>();
    // A step that failed is no step of the command (the harness records a step once it succeeded).
    const failed = new Set(
      events.filter((e) => e.resOpFailedEvent).map((e) => `${e.resOpFailedEvent!.metadata.op} ${e.resOpFailedEvent!.metadata.urn}`),
    );
    for (const e of events) {
      const m = e.resourcePreEvent?.metadata;
      if (m && failed.has(`${m.op} ${m.urn}`)) continue;
      if (!m || !m.type.startsWith(CLOUDCOST_TYPE)) continue;
      ops.set(nameOf(m.urn), [...(ops.get(nameOf(m.urn)) ?? []), m]);
    }
    const steps: { name: string; text: string }[] = [];
    const diffs: Record<string, string[]> = {};
    for (const [name, ms] of ops) {
      const kinds = ms.map((m) => m.op);
      if (kinds.includes("replace")) {
        const order =
          kinds.indexOf("delete-replaced") >= 0 && kinds.indexOf("delete-replaced") < kinds.indexOf("create-replacement")
            ? "delete-before-create"
            : "create-before-delete";
        steps.push({ name, text: `replace ${name} ${order}` });
      } else {
        for (const op of kinds) steps.push({ name, text: `${op} ${name}` });
      }
      const changed = ms.find((m) => m.op === "update" || m.op === "replace");
      if (changed) {
        diffs[name] = opts.preview
          ? changedKeys(comparableProps(changed.old?.inputs, names, true), comparableProps(changed.new?.inputs, names, true))
          : changedKeys(before[name]?.inputs, after[name]?.inputs);
      }
    }
    const policies = events
      .filter((e) => e.policyEvent)
      .map((e) => `${e.policyEvent!.policyName} ${nameOf(e.policyEvent!.resourceUrn ?? "")} ${e.policyEvent!.enforcementLevel}`);
    return {
      ok: result.code === 0,
      message: `${result.stdout}\n${result.stderr}`,
      steps: bySortedName(steps),
      diffs,
      policies: [...new Set(policies)].sort(),
      state: after,
    };
  }

  return {
    api: f.api,
    async up(resources, opts = {}) {
      await stack.setConfig({ key: "resources", value: JSON.stringify(resources) });
      const args = opts.preview ? ["preview"] : ["up", "--yes", "--skip-preview"];
      for (const name of opts.replace ?? [])
        args.push("--target-replace", `urn:pulumi:${stackName}::${PROJECT}::${typeOf(resources, name)}::${name}`);
      if (opts.policy) {
        const file = join(scratch, `policy-config-${++commands}.json`);
        writeFileSync(file, JSON.stringify(opts.policy));
        args.push("--policy-pack", POLICY_PACK, "--policy-pack-config", file);
      }
      return observed(args, opts);
    },
    refresh: () => observed(["refresh", "--yes", "--skip-preview"]),
    destroy: () => observed(["destroy", "--yes", "--skip-preview"]),
    async setProviderConfig(apiUrl, token) {
      await stack.setConfig({ key: "cloudcost:apiUrl", value: apiUrl });
      await stack.setConfig({ key: "cloudcost:apiToken", value: token, secret: true });
    },
    async ids() {
      return Object.fromEntries((await exported()).filter((r) => r.custom && r.id).map((r) => [nameOf(r.urn), r.id!]));
    },
    async dispose() {
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

// ---- the two sides together ----

let f: EngineFixture;
let harnessSandbox: RunningSandbox;
const sides: Side[] = [];

beforeAll(async () => {
  // One sandbox each: names unique in an organization (groups) never meet across the two sides.
  f = await startEngineFixture();
  harnessSandbox = await startSandbox();
  // Both organizations on one day: spend (an alert's outputs) is read from each side's own sandbox.
  const day = new Date(Date.now() + 60_000);
  await holdSandboxDay(f.sandbox, f.token, day);
  await holdSandboxDay(harnessSandbox, await harnessSandbox.token("read,write"), day);
});
afterAll(async () => {
  for (const s of sides) await s.dispose();
  await pack?.stop();
  await harnessSandbox?.dispose();
  await f?.dispose();
  await closeAllPools();
});

/** A stack on each side, under the same name. */
async function pair(stack: string): Promise<{ harness: Side; cli: Side }> {
  const harness = await harnessSide(harnessSandbox, stack);
  const cli = await cliSide(f, stack);
  sides.push(harness, cli);
  return { harness, cli };
}

/**
 * Runs one command on both sides and expects the same observation; returns both (with what each said,
 * for assertions on a failure's message).
 */
async function both(
  sides: { harness: Side; cli: Side },
  command: (s: Side) => Promise<Observed & { message: string }>,
): Promise<{ harness: Observed & { message: string }; cli: Observed & { message: string } }> {
  const harness = await command(sides.harness);
  const cli = await command(sides.cli);
  const { message: _h, ...h } = harness;
  const { message: c, ...e } = cli;
  // The engine's observation is the expected one: a failure shows what the CLI said.
  expect({ ...h, cliSaid: e.ok ? "" : c.slice(-2000) }).toEqual({ ...e, cliSaid: e.ok ? "" : c.slice(-2000) });
  return { harness, cli };
}

/** Changes an object behind Pulumi's back on both sides, by the side's own ids. */
async function onBoth(s: { harness: Side; cli: Side }, change: (api: CloudCostClient, ids: Record<string, string>) => Promise<void>) {
  for (const side of [s.harness, s.cli]) await change(side.api, await side.ids());
}

// ---- scenarios that share a stack ----

type Said = Observed & { message: string };
/** One command of a shared stack, as each side observed it. */
interface Command {
  label: string;
  harness: Said;
  cli: Said;
}

/** An observation narrowed to the resources whose names start with PREFIX: one scenario's objects. */
function own(o: Observed, prefix: string): Observed {
  const mine = (name: string) => name.startsWith(prefix);
  const pick = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).filter(([name]) => mine(name)));
  return {
    ok: o.ok,
    steps: o.steps.filter((text) => mine(text.split(" ")[1] ?? "")),
    diffs: pick(o.diffs),
    policies: o.policies.filter((text) => mine(text.split(" ")[1] ?? "")),
    state: pick(o.state),
  };
}

/**
 * Scenarios whose objects are independent (no name, reference or policy verdict of one touches another's)
 * run in one stack per side: each command carries every scenario's step at once, and each scenario's test
 * judges the two sides on its own objects — one stack and one command sequence instead of one per scenario.
 * SCRIPT runs the commands (in `beforeAll`); `command(label)` is what it recorded under that label.
 */
function sharedStack(
  stack: string,
  script: (run: (label: string, command: (s: Side) => Promise<Said>) => Promise<void>, s: { harness: Side; cli: Side }) => Promise<void>,
): { agree(prefix: string): void; command(label: string): Command } {
  const commands: Command[] = [];
  beforeAll(async () => {
    const s = await pair(stack);
    await script(async (label, command) => {
      commands.push({ label, harness: await command(s.harness), cli: await command(s.cli) });
    }, s);
  });
  return {
    /** The two sides agree on the scenario's objects after every command (the engine's is the expected one). */
    agree(prefix) {
      expect(commands.length).toBeGreaterThan(0);
      for (const { label, harness, cli } of commands) {
        const said = cli.ok ? "" : cli.message.slice(-2000);
        expect({ command: label, ...own(harness, prefix), cliSaid: said }).toEqual({ command: label, ...own(cli, prefix), cliSaid: said });
      }
    },
    command(label) {
      const found = commands.find((c) => c.label === label);
      if (!found) throw new Error(`no command ${label} ran`);
      return found;
    },
  };
}

const RECIPIENTS = ["FinOps@Example.com", "alice@example.com"];
const THRESHOLDS = [
  { percent: 100, basis: "actual" },
  { percent: 80, basis: "forecast" },
];
const WEBHOOK = "https://hooks.example.com/services/T000/harness-agrees";
/** A pack config whose verdicts depend only on the program: the forecast policy (which asks the service) is off. */
const PACK: PolicyPackConfigFile = { "budget-alert-forecast": "disabled", "budget-alert-group-scope": { allowOrganizationWide: true } };

describe("testkit's engine and the real Pulumi CLI agree, rule by rule", () => {
  describe("refresh, ignoreChanges, secrets and the stored provider config (one stack)", () => {
    const rr: Declared[] = [
      { kind: "CloudGroup", name: "rr-group", args: { name: "RR group", awsAccountIds: ["111122223333"] } },
      { kind: "BudgetAlert", name: "rr-alert", args: { name: "RR alert", amount: 100, recipients: RECIPIENTS } },
    ];
    const ic: Declared[] = [
      {
        kind: "CloudGroup",
        name: "ic-group",
        args: { name: "IC group", awsAccountIds: ["111122223333"] },
        opts: { ignoreChanges: ["description"] },
      },
      {
        kind: "BudgetAlert",
        name: "ic-alert",
        args: { name: "IC alert", amount: 100, recipients: RECIPIENTS, thresholds: THRESHOLDS, webhookUrl: WEBHOOK },
        opts: { ignoreChanges: ["webhookUrl", "amount"] },
      },
    ];
    const icChanged: Declared[] = [
      { ...ic[0]!, args: { ...ic[0]!.args, description: "Added later" } },
      { ...ic[1]!, args: { ...ic[1]!.args, amount: 500, webhookUrl: `${WEBHOOK}/other` } },
    ];
    const se: Declared[] = [
      { kind: "BudgetAlert", name: "se-alert", args: { name: "SE alert", amount: 100, recipients: RECIPIENTS, webhookUrl: WEBHOOK } },
    ];
    const seRotated: Declared[] = [{ ...se[0]!, args: { ...se[0]!.args, webhookUrl: `${WEBHOOK}/rotated` } }];
    const so: Declared[] = [
      {
        kind: "CloudGroup",
        name: "so-group",
        args: { name: "SO group", description: "Hidden" },
        opts: { additionalSecretOutputs: ["description"] },
      },
      {
        kind: "BudgetAlert",
        name: "so-alert",
        args: { name: "SO alert", amount: 100 },
        opts: { additionalSecretOutputs: ["name", "currentSpend"] },
      },
    ];
    const sc: Declared[] = [{ kind: "CloudGroup", name: "sc-group", args: { name: "SC group" } }];

    const run = sharedStack("refresh-rules", async (both, s) => {
      await both("up", (side) => side.up([...rr, ...ic, ...se, ...so, ...sc]));
      await onBoth(s, async (api, ids) => {
        const rrAlert = await api.getAlert(ids["rr-alert"]!);
        await api.replaceAlert(rrAlert.id, { ...z.object(AlertInput.shape).parse(rrAlert), amount: 250 });
        await api.deleteGroup(ids["rr-group"]!);
        const icAlert = await api.getAlert(ids["ic-alert"]!);
        await api.replaceAlert(icAlert.id, { ...z.object(AlertInput.shape).parse(icAlert), webhookUrl: WEBHOOK, amount: 300 });
      });
      await both("refresh", (side) => side.refresh());
      await both("up after refresh", (side) => side.up([...rr, ...icChanged, ...se, ...so, ...sc]));
      await both("up, webhook rotated", (side) => side.up([...rr, ...icChanged, ...seRotated, ...so, ...sc]));
      // From here on the program's provider config points nowhere: refresh and destroy must use the stored one.
      for (const side of [s.harness, s.cli]) await side.setProviderConfig(DEAD_API_URL, "not-a-token");
      await both("refresh, config changed", (side) => side.refresh());
      await both("destroy, config changed", (side) => side.destroy());
    });

    it("refresh replaces inputs and outputs, and an empty id drops the resource", () => {
      run.agree("rr-");
      const refreshed = own(run.command("refresh").cli, "rr-");
      expect(Object.keys(refreshed.state)).toEqual(["rr-alert"]);
      expect(refreshed.state["rr-alert"]).toMatchObject({ inputs: { amount: 250 }, outputs: { amount: 250 } });
      expect(own(run.command("up after refresh").cli, "rr-").steps).toEqual(["update rr-alert", "create rr-group"]);
    });

    it("ignoreChanges reads the OLD inputs (after a refresh, the refreshed ones; a path they lack is removed)", () => {
      run.agree("ic-");
      const up = own(run.command("up after refresh").cli, "ic-");
      expect(up.steps).toEqual(["same ic-alert", "same ic-group"]);
      expect(up.state["ic-alert"]!.inputs).toMatchObject({ amount: 300, webhookUrl: { secret: WEBHOOK } });
      expect(up.state["ic-group"]!.inputs).toMatchObject({ description: "" });
    });

    it("refresh and destroy use the provider config stored in state, not the program's current config", () => {
      run.agree("sc-");
      expect(run.command("refresh, config changed").cli).toMatchObject({ ok: true, steps: expect.arrayContaining(["refresh sc-group"]) });
      const destroyed = run.command("destroy, config changed").cli;
      expect(destroyed).toMatchObject({ ok: true, steps: expect.arrayContaining(["delete sc-group"]) });
      expect(destroyed.state).toEqual({});
    });

    it("secrets are stripped before the dynamic provider and re-marked on what comes back", () => {
      run.agree("se-");
      expect(own(run.command("up").cli, "se-").state["se-alert"]).toMatchObject({
        inputs: { webhookUrl: { secret: WEBHOOK } },
        outputs: { webhookUrl: { secret: WEBHOOK } },
      });
      expect(own(run.command("up, webhook rotated").cli, "se-").steps).toEqual(["update se-alert"]);
    });

    it("additionalSecretOutputs are made secret by the engine after each step", () => {
      run.agree("so-");
      expect(own(run.command("up").cli, "so-").state["so-group"]!.outputs.description).toEqual({ secret: "Hidden" });
    });
  });

  describe("Check's olds, Diff's olds and the replace order (one stack)", () => {
    const co = (recipients: string[]): Declared[] => [
      {
        kind: "BudgetAlert",
        name: "co-alert",
        args: { name: "CO alert", amount: 0.1 + 0.2, recipients, thresholds: [...THRESHOLDS].reverse() },
      },
    ];
    const dOut = (amount: number, recipients = RECIPIENTS): Declared[] => [
      { kind: "BudgetAlert", name: "do-alert", args: { name: "DO alert", amount, recipients } },
    ];
    const ro: Declared[] = [
      { kind: "CloudGroup", name: "ro-group", args: { name: "RO group" } },
      { kind: "BudgetAlert", name: "ro-alert", args: { name: "RO alert", amount: 100 } },
      { kind: "BudgetAlert", name: "ro-alert-dbr", args: { name: "RO alert dbr", amount: 100 }, opts: { deleteBeforeReplace: true } },
    ];
    const withBob = [...RECIPIENTS, "Bob@example.com"];

    const run = sharedStack("diff-rules", async (both, s) => {
      await both("up", (side) => side.up([...co(RECIPIENTS), ...dOut(0.3), ...ro]));
      await both("up, same values written otherwise", (side) =>
        side.up([
          ...co([...RECIPIENTS].reverse()),
          ...dOut(
            0.1 + 0.2,
            RECIPIENTS.map((r) => r.toUpperCase()),
          ),
          ...ro,
        ]),
      );
      await both("up, values changed", (side) => side.up([...co(withBob), ...dOut(42), ...ro]));
      // Changed behind Pulumi's back and not refreshed: Diff compares the stored outputs, which still say 42.
      await onBoth(s, async (api, ids) => {
        const live = await api.getAlert(ids["do-alert"]!);
        await api.replaceAlert(live.id, { ...z.object(AlertInput.shape).parse(live), amount: 77 });
      });
      await both("up, targeted replaces", (side) =>
        side.up([...co(withBob), ...dOut(42), ...ro], { replace: ["co-alert", "ro-group", "ro-alert", "ro-alert-dbr"] }),
      );
      await both("destroy", (side) => side.destroy());
    });

    it("Check gets the stored inputs as olds (none for a new resource or a targeted replace) and its answer is stored", () => {
      run.agree("co-");
      expect(own(run.command("up").cli, "co-").state["co-alert"]!.inputs).toMatchObject({
        recipients: ["alice@example.com", "finops@example.com"],
        currency: "USD",
      });
      expect(own(run.command("up, values changed").cli, "co-").diffs).toEqual({ "co-alert": ["recipients"] });
    });

    it("Diff gets the old outputs; Update only when it reports changes, otherwise a Same step", () => {
      run.agree("do-");
      expect(own(run.command("up, same values written otherwise").cli, "do-").steps).toEqual(["same do-alert"]);
      expect(own(run.command("up, values changed").cli, "do-").diffs).toEqual({ "do-alert": ["amount"] });
      expect(own(run.command("up, targeted replaces").cli, "do-").steps).toEqual(["same do-alert"]);
    });

    it("replace order: create-before-delete unless deleteBeforeReplace; a targeted replace never asks Diff", () => {
      run.agree("ro-");
      expect(own(run.command("up, targeted replaces").cli, "ro-").steps).toEqual([
        "replace ro-alert create-before-delete",
        "replace ro-alert-dbr delete-before-create",
        "replace ro-group delete-before-create",
      ]);
    });
  });

  describe("Remediate and internal keys (one stack, one pack config)", () => {
    /** Thresholds remediated; recipients advisory, so ik-alert's outside recipient is a verdict, not a stop. */
    const policy: PolicyPackConfigFile = { ...PACK, "budget-alert-thresholds": "remediate", "budget-alert-recipients": "advisory" };
    const program: Declared[] = [
      { kind: "BudgetAlert", name: "rm-alert", args: { name: "RM alert", amount: 100, recipients: ["finops@example.com"] } },
      { kind: "BudgetAlert", name: "ik-alert", args: { name: "IK alert", amount: 100, recipients: ["someone@elsewhere.example.org"] } },
    ];

    const run = sharedStack("remediate", async (both) => {
      await both("preview", (side) => side.up(program, { preview: true, policy }));
      await both("up", (side) => side.up(program, { policy }));
      await both("up again", (side) => side.up(program, { policy }));
      await both("destroy", (side) => side.destroy());
    });

    it("Remediate's result becomes Create's inputs with no second Check, and Analyze runs on it", () => {
      run.agree("rm-");
      expect(own(run.command("up").cli, "rm-").state["rm-alert"]!.inputs.thresholds).toEqual(
        expect.arrayContaining([{ basis: "forecast", percent: 100 }]),
      );
    });

    it("Analyze never sees `__` keys and Remediate does: the remediated inputs keep `__provider`", () => {
      run.agree("ik-");
      expect(own(run.command("up").cli, "ik-").state["ik-alert"]!.inputs.__provider).toBe("<provider>");
    });
  });

  it("`get` is judged on empty outputs only: an existing group is read, a missing one fails in the provider", async () => {
    const s = await pair("get-read");
    const looked = new Map<Side, string>();
    for (const side of [s.harness, s.cli]) looked.set(side, (await side.api.createGroup({ name: "Looked up" })).id);
    const reading = (side: Side): Declared[] => [{ kind: "CloudGroup", name: "gr-found", get: looked.get(side)! }];
    const found = await both(s, (side) => side.up(reading(side)));
    expect(found.cli.steps).toEqual(["read gr-found"]);
    // What was read stays in state as an external resource: refreshed, and only forgotten when no longer read.
    await both(s, (side) => side.refresh());
    const previewed = await both(s, (side) => side.up([], { preview: true }));
    expect(previewed.cli.steps).toEqual(["discard gr-found"]);
    expect(Object.keys(previewed.cli.state)).toEqual(["gr-found"]);
    const dropped = await both(s, (side) => side.up([]));
    expect(dropped.cli.state).toEqual({});
    await both(s, (side) => side.up(reading(side)));
    const missing = await both(s, (side) => side.up([{ kind: "CloudGroup", name: "gr-missing", get: "grp_0000000000000000000000000" }]));
    expect(missing.harness.message).toMatch(/CloudGroup grp_0000000000000000000000000 does not exist in organization/);
    expect(missing.cli.message).toMatch(/CloudGroup grp_0000000000000000000000000 does not exist in organization/);
    const destroyed = await both(s, (side) => side.destroy());
    expect(destroyed.cli.steps).toEqual(["discard gr-found"]);
    for (const side of [s.harness, s.cli]) await expect(side.api.getGroup(looked.get(side)!)).resolves.toMatchObject({ name: "Looked up" });
  });

  it("AnalyzeStack gets outputs, and Same steps carry the stored outputs: the same verdict in preview, up, the next up and after a refresh", async () => {
    const s = await pair("analyze-stack");
    const covered: Declared[] = [
      { kind: "CloudGroup", name: "as-group", args: { name: "AS group", awsAccountIds: ["111122223333"] } },
      {
        kind: "BudgetAlert",
        name: "as-alert",
        args: { name: "AS alert", amount: 100, groupId: { idOf: "as-group" }, recipients: RECIPIENTS, thresholds: THRESHOLDS },
      },
    ];
    for (const opts of [{ preview: true }, {}, {}]) await both(s, (side) => side.up(covered, { ...opts, policy: PACK }));
    await both(s, (side) => side.refresh());
    await both(s, (side) => side.up(covered, { policy: PACK }));
    const bare: Declared[] = [
      ...covered,
      { kind: "CloudGroup", name: "as-bare", args: { name: "AS bare", awsAccountIds: ["444455556666"] } },
    ];
    const preview = await both(s, (side) => side.up(bare, { preview: true, policy: PACK }));
    expect(preview.cli.policies).toEqual(["cloud-group-budget-coverage as-bare mandatory"]);
    await both(s, (side) => side.up(bare, { policy: PACK }));
    await both(s, (side) => side.destroy());
  });

  it("a mandatory Analyze violation stops `up`, not a preview", async () => {
    const s = await pair("mandatory");
    const program: Declared[] = [{ kind: "BudgetAlert", name: "mv-alert", args: { name: "Nobody", amount: 100, thresholds: THRESHOLDS } }];
    const preview = await both(s, (side) => side.up(program, { preview: true, policy: PACK }));
    expect(preview.cli.policies).toEqual(["budget-alert-recipients mv-alert mandatory"]);
    const up = await both(s, (side) => side.up(program, { policy: PACK }));
    expect(up.cli.ok).toBe(false);
    expect(up.cli.state).toEqual({});
  });
});
