/**
 * The harness judged by the engine (testkit/README.md, "Equivalence with the real engine"): for each rule of
 * the harness's table, one scenario runs through testkit's engine stand-in and through the real Pulumi CLI,
 * on the same program (fixtures/declared) against the same sandbox, and both must give the same steps per
 * resource, the same failures and the same final state (ids and timestamps aside).
 */
import { AlertInput, closeAllPools } from "@cloudcost/api";
import {
  Engine,
  secret,
  startPolicyPack,
  type PolicyPackConfigFile,
  type PulumiStack,
  type RunningPolicyPack,
  type StateResource,
  type StoredResource,
} from "@cloudcost/testkit";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, POLICY_PACK, TYPES, nameOf, useEngineFixture, type Declared } from "./support";

const f = useEngineFixture();
let pack: RunningPolicyPack;
let scratch: string;
beforeAll(async () => {
  pack = await startPolicyPack({ env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
  scratch = mkdtempSync(join(tmpdir(), "cloudcost-agree-"));
}, 120_000);
afterAll(async () => {
  await pack?.stop();
  rmSync(scratch, { recursive: true, force: true });
  await closeAllPools();
});

/** One move of a scenario, done the same way through both engines. */
type Move =
  | { up: Declared[]; policies?: PolicyPackConfigFile; targetReplace?: string }
  | { preview: Declared[]; policies: PolicyPackConfigFile }
  | { refresh: true; apiToken?: string }
  | { behindTheBack: (ids: Record<string, string>) => Promise<void> };

/** What a move showed: the steps per resource name (or that the command failed), in a form both engines give. */
type Seen = { failed: boolean; steps: Record<string, string> };

/** State by resource name, ids, timestamps and `__provider` replaced, secrets as `{ secret: value }`. */
type State = Record<string, { inputs: unknown; outputs: unknown }>;

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
function normal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normal);
  if (typeof value === "string") return /^(grp|alr|rpt|org)_[0-9a-z]+$/.test(value) ? `<${value.slice(0, 3)}>` : value;
  if (value === null || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  if (SECRET_SIG in o) return { secret: normal("plaintext" in o ? JSON.parse(o.plaintext as string) : o.value) };
  const drop = new Set(["__provider", "createdAt", "updatedAt", "nextRunAt", "lastRunAt", "currentSpend", "forecastedSpend"]);
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => !drop.has(k))
      .map(([k, v]) => [k, normal(v)]),
  );
}

function harnessState(engine: Engine): State {
  return Object.fromEntries(
    [...engine.state.values()].map((r: StoredResource) => [r.name, { inputs: normal(r.inputs), outputs: normal(r.outputs) }]),
  );
}

async function cliState(stack: PulumiStack): Promise<State> {
  const resources = ((await stack.exportState({ showSecrets: true })).deployment.resources ?? []).filter((r: StateResource) =>
    Object.values<string>(TYPES).includes(r.type),
  );
  return Object.fromEntries(resources.map((r) => [nameOf(r.urn), { inputs: normal(r.inputs), outputs: normal(r.outputs) }]));
}

/** The CLI's preview steps collapsed to one op per resource (a replace shows as three steps there). */
function cliSteps(steps: { op: string; urn: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of steps) {
    if (!Object.values<string>(TYPES).some((t) => s.urn.includes(`::${t}::`))) continue;
    const op = ["create-replacement", "delete-replaced", "replace"].includes(s.op) ? "replace" : s.op;
    if (op !== "refresh") out[nameOf(s.urn)] = out[nameOf(s.urn)] === "replace" ? "replace" : op;
  }
  return out;
}

function packConfigFile(config: PolicyPackConfigFile): string {
  const file = join(scratch, `policy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** Runs the moves through the real CLI. */
async function throughCli(stackName: string, moves: Move[]): Promise<{ seen: Seen[]; state: State }> {
  const stack = await f.stack(DECLARED_PROGRAM, stackName);
  const seen: Seen[] = [];
  const ids = async () =>
    Object.fromEntries(((await stack.exportState()).deployment.resources ?? []).filter((r) => r.id).map((r) => [nameOf(r.urn), r.id!]));
  for (const move of moves) {
    if ("behindTheBack" in move) await move.behindTheBack(await ids());
    else if ("refresh" in move) {
      if (move.apiToken) await stack.setConfig({ key: "cloudcost:apiToken", value: move.apiToken, secret: true });
      seen.push({ failed: (await stack.refresh()).code !== 0, steps: {} });
    } else {
      const resources = "up" in move ? move.up : move.preview;
      await stack.setConfigObject(DECLARED_RESOURCES, resources);
      const policy = move.policies ? ["--policy-pack", POLICY_PACK, "--policy-pack-config", packConfigFile(move.policies)] : [];
      const target =
        "up" in move && move.targetReplace
          ? ["--target-replace", `urn:pulumi:${stackName}::cloudcost-engine-declared::${move.targetReplace}`]
          : [];
      const preview = await stack.previewJson([...policy, ...target]);
      if ("preview" in move) seen.push({ failed: preview.code !== 0, steps: cliSteps(preview.digest.steps) });
      else {
        const up = await stack.up([...policy, ...target]);
        seen.push({ failed: up.code !== 0, steps: up.code === 0 || preview.code === 0 ? cliSteps(preview.digest.steps) : {} });
      }
    }
  }
  const state = await cliState(stack);
  await stack.destroy();
  return { seen, state };
}

/** Runs the moves through testkit's engine stand-in, with the policy pack configured as the CLI would. */
async function throughHarness(moves: Move[]): Promise<{ seen: Seen[]; state: State }> {
  const config = { "cloudcost:apiUrl": f.sandbox.baseUrl, "cloudcost:apiToken": secret(f.token) };
  // As with the CLI, the pack runs only in scenarios that pass --policy-pack.
  const policyPack = moves.some((m) => "policies" in m) ? pack : undefined;
  const engine = new Engine({ config, policyPack, project: "cloudcost-engine-declared", stack: "agree" });
  const seen: Seen[] = [];
  const ids = () => Object.fromEntries([...engine.state.values()].map((r) => [r.name, r.id]));
  try {
    for (const move of moves) {
      if ("behindTheBack" in move) await move.behindTheBack(ids());
      else if ("refresh" in move) {
        if (move.apiToken) engine.setConfig({ ...config, "cloudcost:apiToken": secret(move.apiToken) });
        seen.push(await settle(async () => ({ steps: {}, failed: (await engine.refresh()).length < 0 })));
      } else {
        const resources = "up" in move ? move.up : move.preview;
        await pack.configure(move.policies ?? {});
        // As scripts/demo/program.ts runs a program: config set, then every registration answered.
        const program = async () => {
          pulumi.runtime.setAllConfig({ [DECLARED_RESOURCES]: JSON.stringify(resources) });
          const outputs = declaredProgram();
          await (require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> }).waitForRPCs();
          return outputs;
        };
        const replaceTargets =
          "up" in move && move.targetReplace ? [engine.urnOf(move.targetReplace.split("::")[0]!, move.targetReplace.split("::")[1]!)] : [];
        seen.push(
          await settle(async () => {
            const result = await engine.runProgram(program, { preview: "preview" in move, replaceTargets });
            const steps = Object.fromEntries(result.steps.filter((s) => s.op !== "refresh").map((s) => [nameOf(s.urn), s.op]));
            return { failed: result.failed, steps };
          }),
        );
      }
    }
    return { seen, state: harnessState(engine) };
  } finally {
    await pack.configure({});
    await engine.destroy().catch(() => undefined);
    await engine.stop();
  }
}

/** fixtures/declared's program: a function, so one process can run it for every move. */
const declaredProgram = require(join(DECLARED_PROGRAM, "index.ts")) as () => unknown;

/** A move that throws counts as a failed command, as the CLI's non-zero exit does. */
async function settle(work: () => Promise<Seen>): Promise<Seen> {
  try {
    return await work();
  } catch (e) {
    if (process.env.AGREE_DEBUG) console.error(e);
    return { failed: true, steps: {} };
  }
}

const group = (name: string, extra: Record<string, unknown> = {}): Declared => ({
  kind: "CloudGroup",
  name,
  inputs: { name: `Agree ${name}`, awsAccountIds: ["111122223333"], ...extra },
});
const alert = (name: string, inputs: Record<string, unknown> = {}, options?: Declared["options"]): Declared => ({
  kind: "BudgetAlert",
  name,
  groupOf: "g",
  inputs: { name: `Agree ${name}`, amount: 100, recipients: ["team@example.com"], ...inputs },
  options,
});
const bothThresholds = [
  { percent: 100, basis: "actual" },
  { percent: 80, basis: "forecast" },
];

const SCENARIOS: { rule: string; moves: Move[] }[] = [
  {
    rule: "Refresh replaces inputs and outputs",
    moves: [
      { up: [group("g")] },
      { behindTheBack: async (ids) => void (await f.api.updateGroup(ids.g!, { description: "changed in the portal" })) },
      { refresh: true },
    ],
  },
  {
    rule: "ignoreChanges reads the OLD inputs",
    moves: [
      { up: [group("g"), alert("a")] },
      { behindTheBack: async (ids) => void (await f.api.replaceAlert(ids.a!, { ...(await alertFields(ids.a!)), amount: 150 })) },
      { refresh: true },
      { up: [group("g"), alert("a", { amount: 200 }, { ignoreChanges: ["amount"] })] },
    ],
  },
  {
    rule: "Check gets the stored inputs as olds; Diff gets the old outputs; Update only on changes",
    moves: [
      { up: [group("g"), alert("a")] },
      { up: [group("g"), alert("a", { amount: 120 })] },
      { up: [group("g"), alert("a", { amount: 120 })] },
    ],
  },
  {
    rule: "`get` is judged on empty outputs only (the provider fails a missing id)",
    moves: [{ up: [{ kind: "CloudGroup", name: "missing", get: "grp_0000000000000000000000" }] }],
  },
  {
    rule: "AnalyzeStack gets outputs; Same steps carry the stored outputs",
    moves: [
      { up: [group("g"), alert("a", { thresholds: bothThresholds })], policies: {} },
      { up: [group("g"), alert("a", { thresholds: bothThresholds })], policies: {} },
      {
        up: [
          group("g"),
          alert("a", { thresholds: bothThresholds }),
          group("orphan", { name: "Agree orphan", awsAccountIds: ["444455556666"] }),
        ],
        policies: {},
      },
    ],
  },
  {
    rule: "Remediate's result becomes Create's inputs",
    moves: [
      {
        up: [group("g"), alert("a", { thresholds: [{ percent: 80, basis: "forecast" }] })],
        policies: { "budget-alert-thresholds": "remediate" },
      },
    ],
  },
  {
    rule: "A mandatory Analyze violation fails the command (a preview too, after analysing everything)",
    moves: [
      {
        preview: [group("g"), alert("a", { recipients: ["x@elsewhere.dev"] })],
        policies: { "budget-alert-recipients": { allowedEmailDomains: ["example.com"] } },
      },
      {
        up: [group("g"), alert("a", { recipients: ["x@elsewhere.dev"] })],
        policies: { "budget-alert-recipients": { allowedEmailDomains: ["example.com"] } },
      },
    ],
  },
  {
    rule: "Replace order: a targeted replace of a CloudGroup is delete-first",
    moves: [{ up: [group("g")] }, { up: [group("g")], targetReplace: `${TYPES.group}::g` }],
  },
  {
    rule: "Refresh and destroy use the provider config stored in state",
    moves: [{ up: [group("g")] }, { refresh: true, apiToken: "ccpat_not-a-real-token-000000000000" }],
  },
  {
    rule: "Secrets are stripped before the provider and re-marked; additionalSecretOutputs are secret",
    moves: [{ up: [group("g"), alert("a", { webhookUrl: "https://hooks.example.com/agree" })] }],
  },
];

/** Every input field of an alert as the service holds it (PUT replaces the whole alert). */
async function alertFields(id: string) {
  return z.object(AlertInput.shape).parse(await f.api.getAlert(id));
}

/**
 * A failed command's steps are not compared: where it stopped is the engine's business, that it failed is
 * ours. `same` steps are left out on both sides (the CLI's preview digest lists them only sometimes).
 */
const verdicts = (seen: Seen[]) =>
  seen.map((s) =>
    s.failed ? { failed: true } : { failed: false, steps: Object.fromEntries(Object.entries(s.steps).filter(([, op]) => op !== "same")) },
  );

let serial = 0;
describe.each(SCENARIOS)("$rule", ({ moves }) => {
  it("gives the same steps, failures and final state through the harness and the real CLI", async () => {
    const harness = await throughHarness(moves);
    const cli = await throughCli(`agree-${++serial}`, moves);
    expect(verdicts(harness.seen)).toEqual(verdicts(cli.seen));
    expect(harness.state).toEqual(cli.state);
  }, 300_000);
});
