import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, startSandboxServer } from "@cloudcost/sandbox";
import { PulumiWorkspace, pulumiCliVersion, type PulumiStack, type StackExport } from "@cloudcost/testkit";
import { PROBE, REPO, copyProgram, countAnswers, countRequests, requestsSince, round, sampleLoad, takeCpu, total } from "./engine-support";
import { prepareTofu, tofuDoor, type TofuTools } from "./tofu-door";
import { benchToken } from "./workload";

/**
 * Area `doors` (issue 34 item 7, for issue 26): the same N resources (bench/programs/many: a third each
 * groups, alerts on them and reports on them) deployed through each front door of the provider, by the REAL
 * CLI, in the same run against the same sandbox: `up`, `plan`, `refresh`, `destroy` of 1,000 resources, with the
 * sandbox's rate limit off and then on (issue 38: its default, 600 requests per minute per caller).
 *
 * - `dynamic`: `@cloudcost/pulumi`'s dynamic resources, run by the SDK's dynamic-provider host. The baseline:
 *   every ratio is the other door's figure ÷ this one's.
 * - `native`: the same program through the native plugin's Node.js SDK (sdk/nodejs, compiled once per run as
 *   its release is), run by `pulumi-resource-cloudcost` (native/bin, found through Pulumi.yaml `plugins`).
 *
 * Per door and command: wall time of the CLI command; HTTP requests counted by the sandbox; the provider
 * process's CPU (src/engine-cpu-probe.ts); after `up`, state bytes per resource (`pulumi stack export`).
 * - `tofu` (issue 32): the same resources as an OpenTofu configuration on the Terraform provider, by the real
 *   OpenTofu CLI (src/tofu-door.ts): `up` is `tofu apply`, `plan` is `tofu plan`, `refresh` is
 *   `tofu plan -refresh-only`, `destroy` is `tofu destroy`; state bytes are terraform.tfstate's.
 * `plan` (Pulumi: `pulumi preview --expect-no-changes`) runs right after `up` and must propose nothing.
 *
 * The doors take turns running first, command by command. A door is one entry of `DOORS` that deploys the
 * same resources and measures the same four figures. Each rate-limit setting gets its own sandbox, and each
 * door its own API token there: the limit is per caller, so a door waits on its own requests, not on another
 * door's. Every answer 429 is counted per command (`answered429`); with the limit on, a door must wait them out:
 * a command that fails (a 429 it gave up on included) fails the bench, naming the door, the command and the
 * count; with the limit off, a single 429 does.
 *
 * Knobs: `BENCH_DOORS_N=100` (one size; comma-separated for several, which adds `perResource`),
 * `BENCH_DOORS_RATE_LIMIT=off|on|both` (default both).
 */
const SIZES = [1000];
export const COMMANDS = ["up", "plan", "refresh", "destroy"] as const;
export type Command = (typeof COMMANDS)[number];

/** The sandbox's rate limit in a doors run: off, or its default (600 requests per minute per caller). */
export type RateLimit = "off" | "on";
const REQUESTS_PER_MINUTE: Record<RateLimit, number> = { off: 0, on: DEFAULT_RATE_LIMIT_PER_MINUTE };

/** One command's figures through one door. */
export interface DoorRun {
  seconds: number;
  requests: Record<string, number>;
  /** Answers 429 (the rate limit) the door got and waited out. */
  answered429: number;
  /** CPU of the process(es) that spoke to the API for the door: the provider. */
  providerCpuMs: number;
  /** How many provider processes the command started (tofu starts several; Pulumi one). */
  providerProcesses: number;
}

/** One door's deployment of N resources: runs the commands and tells its state's size. */
export interface DoorStack {
  /** Runs COMMAND to completion (throws on failure) and returns the provider's CPU in ms. */
  run(command: Command): Promise<{ providerCpuMs: number; providerProcesses?: number }>;
  /** The state after `up` (bytes) and the number of declared resources it holds. */
  state(): Promise<{ bytes: number; resources: number }>;
  remove(): Promise<void>;
}

/** What every door gets: the sandbox and its credentials, and the run's scratch folders. */
export interface DoorContext {
  sandboxUrl: string;
  token: string;
  workspace: PulumiWorkspace;
  cpuDir: string;
  /** The native SDK compiled for this run (require-able folder). */
  nativeSdk: string;
  /** OpenTofu, and the provider built for this run installed through a CLI configuration. */
  tofu: TofuTools;
}

export interface Door {
  name: string;
  /** The CLI command each bench command runs through this door. */
  commands: Record<Command, string>;
  open(n: number, ctx: DoorContext): Promise<DoorStack>;
}

/** The figures the probe wrote for a finished command: exactly one provider process must have reported. */
function providerCpu(cpuDir: string, what: string): number {
  const cpu = takeCpu(cpuDir);
  if (cpu.providers !== 1) throw new Error(`${what}: ${cpu.providers} provider processes reported their CPU, not 1`);
  return cpu.provider;
}

/**
 * A hang guard, not a measurement (testkit's default, 5 min, is for tests): `pulumi up` of 1,000 resources on a
 * loaded 2-core machine takes longer, the CLI rewriting its checkpoint after every step (see "Area `engine`").
 */
const COMMAND_TIMEOUT_MS = 30 * 60_000;

/** A door through the Pulumi CLI: the bench program in a stack with the door's `provider` mode. */
function pulumiDoor(name: string, mode: "cloudcost" | "native", pulumiYaml = ""): Door {
  return {
    name,
    commands: { up: "pulumi up", plan: "pulumi preview --expect-no-changes", refresh: "pulumi refresh", destroy: "pulumi destroy" },
    async open(n, ctx) {
      const copy = copyProgram(pulumiYaml);
      const stack: PulumiStack = await ctx.workspace.initStack(`${name}-${n}`, copy, [
        { key: "cloudcost:apiUrl", value: ctx.sandboxUrl },
        { key: "cloudcost:apiToken", value: ctx.token, secret: true },
        { key: "cloudcost-bench-many:resources", value: String(n) },
        { key: "cloudcost-bench-many:provider", value: mode },
        { key: "cloudcost-bench-many:nativeSdk", value: ctx.nativeSdk },
        { key: "cloudcost-bench-many:namePrefix", value: name },
      ]);
      return {
        async run(command) {
          takeCpu(ctx.cpuDir);
          const result =
            command === "plan"
              ? await stack.run(["preview", "--expect-no-changes"], { timeoutMs: COMMAND_TIMEOUT_MS })
              : await stack[command]([], { timeoutMs: COMMAND_TIMEOUT_MS });
          if (result.code !== 0)
            throw new Error(`pulumi ${command} of ${stack.name} exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
          return { providerCpuMs: providerCpu(ctx.cpuDir, `pulumi ${command} of ${stack.name}`) };
        },
        async state() {
          const exported = (await stack.must(["stack", "export"])).stdout;
          const resources = (JSON.parse(exported) as StackExport).deployment.resources ?? [];
          return {
            bytes: Buffer.byteLength(exported),
            resources: resources.filter((r) => r.custom && !r.type.startsWith("pulumi:providers:")).length,
          };
        },
        async remove() {
          await stack.remove();
          rmSync(copy, { recursive: true, force: true });
        },
      };
    },
  };
}

/** The doors, baseline first. */
export const DOORS: readonly Door[] = [
  pulumiDoor("dynamic", "cloudcost"),
  pulumiDoor("native", "native", `plugins:\n  providers:\n    - name: cloudcost\n      path: ${join(REPO, "native", "bin")}\n`),
  tofuDoor,
];

/** sdk/nodejs compiled as its release is (tsc into bin/, the manifest beside it), resolving @pulumi/pulumi from the repository. */
function compileNativeSdk(work: string): string {
  const sdk = join(work, "sdk");
  cpSync(join(REPO, "sdk", "nodejs"), sdk, { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(sdk, "node_modules"), "dir");
  execFileSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", sdk], { stdio: "pipe" });
  cpSync(join(sdk, "package.json"), join(sdk, "bin", "package.json"));
  return join(sdk, "bin");
}

/** What one rate-limit setting's sandbox gives a size's run: its contexts per door and its counters. */
interface LimitedSandbox {
  limit: RateLimit;
  contexts: Map<string, DoorContext>;
  requests: Record<string, number>;
  tooMany: { count: number };
}

async function measureSize(n: number, sandbox: LimitedSandbox): Promise<Record<string, unknown>> {
  const { limit, requests, tooMany } = sandbox;
  const stacks = new Map<string, DoorStack>();
  try {
    for (const door of DOORS) stacks.set(door.name, await door.open(n, sandbox.contexts.get(door.name)!));
    const runs = new Map<Command, Map<string, DoorRun>>();
    const stateBytes = new Map<string, number>();
    for (const [c, command] of COMMANDS.entries()) {
      runs.set(command, new Map());
      // Each command starts with another door, so no door always runs on a warmer (or busier) machine.
      const order = DOORS.map((_, i) => DOORS[(i + c) % DOORS.length]!);
      for (const door of order) {
        const stack = stacks.get(door.name)!;
        const before = { ...requests };
        const before429 = tooMany.count;
        const what = `door ${door.name}: ${door.commands[command]} of ${n} resources, rate limit ${limit}`;
        const t0 = performance.now();
        const { providerCpuMs, providerProcesses = 1 } = await stack.run(command).catch((err: unknown) => {
          throw new Error(`${what} failed after ${tooMany.count - before429} answers 429: ${(err as Error).message}`, { cause: err });
        });
        const seconds = (performance.now() - t0) / 1000;
        const answered429 = tooMany.count - before429;
        if (limit === "off" && answered429 > 0) throw new Error(`${what}: ${answered429} answers 429 with the rate limit off`);
        const run = { seconds, requests: requestsSince(requests, before), answered429, providerCpuMs, providerProcesses };
        runs.get(command)!.set(door.name, run);
        if (command === "up" || command === "destroy") {
          const { bytes, resources } = await stack.state();
          const expected = command === "up" ? n : 0;
          if (resources !== expected)
            throw new Error(`after ${command} the state of door ${door.name} holds ${resources} resources, not ${expected}`);
          if (command === "up") stateBytes.set(door.name, bytes);
        }
      }
    }
    const [baseline, ...others] = DOORS.map((d) => d.name);
    const figures: Record<string, unknown> = { resources: n };
    for (const command of COMMANDS) {
      const byDoor = runs.get(command)!;
      const base = byDoor.get(baseline!)!;
      const perCommand: Record<string, unknown> = {};
      for (const name of DOORS.map((d) => d.name)) {
        const run = byDoor.get(name)!;
        perCommand[name] = {
          seconds: round(run.seconds),
          httpRequests: total(run.requests),
          httpRequestsByRoute: run.requests,
          answered429: run.answered429,
          providerCpuMs: Math.round(run.providerCpuMs),
          providerProcesses: run.providerProcesses,
          ...(name === baseline
            ? {}
            : {
                secondsRatioToDynamic: round(run.seconds / base.seconds),
                providerCpuRatioToDynamic: round(run.providerCpuMs / base.providerCpuMs),
              }),
        };
      }
      figures[command] = perCommand;
    }
    figures.stateBytesPerResource = Object.fromEntries(DOORS.map((d) => [d.name, Math.round(stateBytes.get(d.name)! / n)]));
    figures.stateBytesRatioToDynamic = Object.fromEntries(
      others.map((name) => [name, round(stateBytes.get(name)! / stateBytes.get(baseline!)!)]),
    );
    return figures;
  } finally {
    for (const stack of stacks.values()) await stack.remove();
  }
}

/** Provider CPU per further resource between the smallest and the largest size (the processes' start-up cancels out). */
function perResource(measured: Map<number, Record<string, unknown>>): Record<string, unknown> {
  const sizes = [...measured.keys()].sort((a, b) => a - b);
  const small = sizes[0]!;
  const large = sizes[sizes.length - 1]!;
  const cpu = (n: number, command: Command, door: string) =>
    (measured.get(n)![command] as Record<string, { providerCpuMs: number }>)[door]!.providerCpuMs;
  const out: Record<string, unknown> = { between: [small, large] };
  for (const command of COMMANDS) {
    const each = Object.fromEntries(
      DOORS.map((d) => [d.name, (cpu(large, command, d.name) - cpu(small, command, d.name)) / (large - small)]),
    );
    const baseline = each[DOORS[0]!.name]!;
    out[command] = Object.fromEntries(
      DOORS.map((d) => [
        d.name,
        d === DOORS[0]
          ? { providerCpuMs: round(each[d.name]!) }
          : { providerCpuMs: round(each[d.name]!), ratioToDynamic: round(each[d.name]! / baseline) },
      ]),
    );
  }
  return out;
}

/** `BENCH_DOORS_RATE_LIMIT`: off, on, or both (the default, off first). */
function rateLimits(): RateLimit[] {
  const wanted = process.env.BENCH_DOORS_RATE_LIMIT ?? "both";
  if (wanted === "both") return ["off", "on"];
  if (wanted === "off" || wanted === "on") return [wanted];
  throw new Error(`BENCH_DOORS_RATE_LIMIT: off, on or both, not ${wanted}`);
}

/** What a run prepares once for every setting: the scratch folders, the workspace, the built SDK and provider. */
type RunTools = Omit<DoorContext, "sandboxUrl" | "token">;

/** Every size through every door against a fresh sandbox with the rate limit LIMIT, each door with its own token. */
async function measureLimit(limit: RateLimit, sizes: number[], tools: RunTools): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-doors-"));
  const server = await startSandboxServer({ dataDir, port: 0, rateLimitPerMinute: REQUESTS_PER_MINUTE[limit] });
  const sandbox: LimitedSandbox = { limit, contexts: new Map(), requests: countRequests(server), tooMany: countAnswers(server, 429) };
  const load = sampleLoad();
  try {
    for (const door of DOORS) sandbox.contexts.set(door.name, { ...tools, sandboxUrl: server.url, token: await benchToken(dataDir) });
    const out: Record<string, unknown> = { requestsPerMinutePerCaller: REQUESTS_PER_MINUTE[limit] };
    const measured = new Map<number, Record<string, unknown>>();
    for (const n of sizes) {
      measured.set(n, await measureSize(n, sandbox));
      out[`n${n}`] = measured.get(n);
    }
    if (measured.size >= 2) out.perResource = perResource(measured);
    out.loadAverage1m = load.stop();
    return out;
  } finally {
    load.stop();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function doorsBench(): Promise<Record<string, unknown>> {
  const sizes = process.env.BENCH_DOORS_N ? process.env.BENCH_DOORS_N.split(",").map(Number) : SIZES;
  if (sizes.some((n) => !Number.isInteger(n) || n < 3 || n > 2000))
    throw new Error(`BENCH_DOORS_N: whole numbers 3–2000, not ${process.env.BENCH_DOORS_N}`);
  const limits = rateLimits();
  const cpuDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-doors-cpu-"));
  const work = mkdtempSync(join(tmpdir(), "cloudcost-bench-doors-sdk-"));
  const inherited = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : "";
  const workspace = new PulumiWorkspace({
    env: { NODE_OPTIONS: `${inherited}--require ${JSON.stringify(PROBE)}`, BENCH_ENGINE_CPU_DIR: cpuDir },
  });
  const load = sampleLoad();
  try {
    const tools: RunTools = { workspace, cpuDir, nativeSdk: compileNativeSdk(work), tofu: prepareTofu(work) };
    const out: Record<string, unknown> = {
      cli: pulumiCliVersion(),
      doors: DOORS.map((d) => d.name),
      commands: Object.fromEntries(DOORS.map((d) => [d.name, d.commands])),
      baseline: DOORS[0]!.name,
      countedBy: "the sandbox's HTTP server (a sandbox per rate-limit setting, an API token per door)",
      cpuMeasuredBy:
        "process.cpuUsage() of the provider process (src/engine-cpu-probe.ts); tofu: bash `times` of each provider process it started (src/tofu-door.ts)",
    };
    for (const limit of limits) out[`rateLimit${limit === "on" ? "On" : "Off"}`] = await measureLimit(limit, sizes, tools);
    out.loadAverage1m = load.stop();
    return out;
  } finally {
    load.stop();
    workspace.dispose();
    for (const dir of [cpuDir, work]) rmSync(dir, { recursive: true, force: true });
  }
}
