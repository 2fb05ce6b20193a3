import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { startSandboxServer } from "@cloudcost/sandbox";
import { PulumiWorkspace, pulumiCliVersion, type PulumiStack, type StackExport } from "@cloudcost/testkit";
import { PROBE, REPO, copyProgram, countRequests, requestsSince, round, sampleLoad, takeCpu, total } from "./engine-support";
import { prepareTofu, tofuDoor, type TofuTools } from "./tofu-door";
import { benchToken } from "./workload";

/**
 * Area `doors` (issue 34 item 7, for issue 26): the same N resources (bench/programs/many: a third each
 * groups, alerts on them and reports on them) deployed through each front door of the provider, by the REAL
 * CLI, in the same run against the same sandbox: `up`, `refresh`, `destroy` of 100 and 500 resources.
 *
 * - `dynamic`: `@cloudcost/pulumi`'s dynamic resources, run by the SDK's dynamic-provider host. The baseline:
 *   every ratio is the other door's figure ÷ this one's.
 * - `native`: the same program through the native plugin's Node.js SDK (sdk/nodejs, compiled once per run as
 *   its release is), run by `pulumi-resource-cloudcost` (native/bin, found through Pulumi.yaml `plugins`).
 *
 * Per door and command: wall time of the CLI command; HTTP requests counted by the sandbox; the provider
 * process's CPU (src/engine-cpu-probe.ts); after `up`, state bytes per resource (`pulumi stack export`).
 * - `tofu` (issue 32): the same resources as an OpenTofu configuration on the Terraform provider, by the real
 *   OpenTofu CLI (src/tofu-door.ts): `up` is `tofu apply`, `refresh` is `tofu plan -refresh-only`, `destroy`
 *   is `tofu destroy`; state bytes are terraform.tfstate's.
 *
 * The doors take turns running first, command by command. A door is one entry of `DOORS` that deploys the
 * same resources and measures the same four figures.
 *
 * Knobs: `BENCH_DOORS_N=100` (one size; comma-separated for several).
 */
const SIZES = [100, 500];
export const COMMANDS = ["up", "refresh", "destroy"] as const;
export type Command = (typeof COMMANDS)[number];

/** One command's figures through one door. */
export interface DoorRun {
  seconds: number;
  requests: Record<string, number>;
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

/** A door through the Pulumi CLI: the bench program in a stack with the door's `provider` mode. */
function pulumiDoor(name: string, mode: "cloudcost" | "native", pulumiYaml = ""): Door {
  return {
    name,
    commands: { up: "pulumi up", refresh: "pulumi refresh", destroy: "pulumi destroy" },
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
          const result = await stack[command]();
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

async function measureSize(n: number, ctx: DoorContext, requests: Record<string, number>): Promise<Record<string, unknown>> {
  const stacks = new Map<string, DoorStack>();
  try {
    for (const door of DOORS) stacks.set(door.name, await door.open(n, ctx));
    const runs = new Map<Command, Map<string, DoorRun>>();
    const stateBytes = new Map<string, number>();
    for (const [c, command] of COMMANDS.entries()) {
      runs.set(command, new Map());
      // Each command starts with another door, so no door always runs on a warmer (or busier) machine.
      const order = DOORS.map((_, i) => DOORS[(i + c) % DOORS.length]!);
      for (const door of order) {
        const stack = stacks.get(door.name)!;
        const before = { ...requests };
        const t0 = performance.now();
        const { providerCpuMs, providerProcesses = 1 } = await stack.run(command);
        const seconds = (performance.now() - t0) / 1000;
        runs.get(command)!.set(door.name, { seconds, requests: requestsSince(requests, before), providerCpuMs, providerProcesses });
        if (command !== "refresh") {
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

export async function doorsBench(): Promise<Record<string, unknown>> {
  const sizes = process.env.BENCH_DOORS_N ? process.env.BENCH_DOORS_N.split(",").map(Number) : SIZES;
  if (sizes.some((n) => !Number.isInteger(n) || n < 3 || n > 2000))
    throw new Error(`BENCH_DOORS_N: whole numbers 3–2000, not ${process.env.BENCH_DOORS_N}`);
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-doors-"));
  const cpuDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-doors-cpu-"));
  const work = mkdtempSync(join(tmpdir(), "cloudcost-bench-doors-sdk-"));
  // The limit off: the figures are the doors', not 600 requests per minute's.
  const server = await startSandboxServer({ dataDir, port: 0, rateLimitPerMinute: 0 });
  const requests = countRequests(server);
  const inherited = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : "";
  const workspace = new PulumiWorkspace({
    env: { NODE_OPTIONS: `${inherited}--require ${JSON.stringify(PROBE)}`, BENCH_ENGINE_CPU_DIR: cpuDir },
  });
  const load = sampleLoad();
  try {
    const ctx: DoorContext = {
      sandboxUrl: server.url,
      token: await benchToken(dataDir),
      workspace,
      cpuDir,
      nativeSdk: compileNativeSdk(work),
      tofu: prepareTofu(work),
    };
    const out: Record<string, unknown> = {
      cli: pulumiCliVersion(),
      doors: DOORS.map((d) => d.name),
      commands: Object.fromEntries(DOORS.map((d) => [d.name, d.commands])),
      baseline: DOORS[0]!.name,
      countedBy: "the sandbox's HTTP server (rate limit off)",
      cpuMeasuredBy:
        "process.cpuUsage() of the provider process (src/engine-cpu-probe.ts); tofu: bash `times` of each provider process it started (src/tofu-door.ts)",
    };
    const measured = new Map<number, Record<string, unknown>>();
    for (const n of sizes) {
      measured.set(n, await measureSize(n, ctx, requests));
      out[`n${n}`] = measured.get(n);
    }
    if (measured.size >= 2) out.perResource = perResource(measured);
    out.loadAverage1m = load.stop();
    return out;
  } finally {
    load.stop();
    workspace.dispose();
    await server.close();
    for (const dir of [dataDir, cpuDir, work]) rmSync(dir, { recursive: true, force: true });
  }
}
