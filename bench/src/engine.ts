import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandboxServer } from "@cloudcost/sandbox";
import { PulumiWorkspace, pulumiCliVersion, type PulumiStack, type StackExport } from "@cloudcost/testkit";
import { PROBE, copyProgram, countRequests, requestsSince, round, sampleLoad, takeCpu, total } from "./engine-support";
import { benchToken } from "./workload";

/**
 * Area `engine` (issue 25): `pulumi up`, `pulumi refresh` and `pulumi destroy` of N resources (100 and 500)
 * through the REAL Pulumi CLI (scripts/pulumi-cli.js, isolated and offline: testkit's `PulumiWorkspace`),
 * running bench/programs/many (N/3 groups, alerts on them, reports on them) against a sandbox on loopback.
 *
 * Per command: wall time of the `pulumi` process; HTTP requests, counted by the sandbox (it runs in this
 * process, with its rate limit off, and counts every request its HTTP server receives); and the CPU time of
 * the dynamic-provider process, measured by a probe preloaded into the CLI's Node processes
 * (src/engine-cpu-probe.ts: `process.cpuUsage()` of the provider process itself, written as it ends). After
 * `up`: state bytes per resource (`pulumi stack export`).
 *
 * Baseline in the same run, on the same CLI, workspace and program: the same N resources with the same
 * inputs and dependencies, declared as dynamic resources whose provider does nothing (`provider: noop`). Its
 * provider CPU is what the Node host, the SDK's dynamic-provider runtime and gRPC cost by themselves;
 * `providerCpuRatioToNoop` is ours ÷ that. The two stacks alternate which one runs first, command by command.
 *
 * Knobs: `BENCH_ENGINE_N=100` (one size, comma-separated for several).
 */
const SIZES = [100, 500];
const COMMANDS = ["up", "refresh", "destroy"] as const;
type Command = (typeof COMMANDS)[number];
type Side = "ours" | "noop";

interface Run {
  seconds: number;
  requests: Record<string, number>;
  providerCpuMs: number;
  providerProcesses: number;
  programCpuMs: number | null;
}

/** Bytes of a resource's `__provider` text as the export writes it (a JSON string). */
const providerText = (props?: Record<string, unknown>) =>
  typeof props?.__provider === "string" ? Buffer.byteLength(JSON.stringify(props.__provider)) : 0;

async function measureSize(
  n: number,
  workspace: PulumiWorkspace,
  cpuDir: string,
  sandboxUrl: string,
  token: string,
  requests: Record<string, number>,
): Promise<Record<string, unknown>> {
  const copy = copyProgram();
  try {
    const config = (side: Side) => [
      { key: "cloudcost:apiUrl", value: sandboxUrl },
      { key: "cloudcost:apiToken", value: token, secret: true },
      { key: "cloudcost-bench-many:resources", value: String(n) },
      { key: "cloudcost-bench-many:provider", value: side === "ours" ? "cloudcost" : "noop" },
    ];
    const stacks: Record<Side, PulumiStack> = {
      ours: await workspace.initStack(`ours-${n}`, copy, config("ours")),
      noop: await workspace.initStack(`noop-${n}`, copy, config("noop")),
    };
    const runs = {} as Record<Command, Record<Side, Run>>;
    const stateBytes = {} as Record<Side, number>;
    const providerFieldBytes = {} as Record<Side, number>;
    for (const [c, command] of COMMANDS.entries()) {
      runs[command] = {} as Record<Side, Run>;
      const order: Side[] = c % 2 === 0 ? ["noop", "ours"] : ["ours", "noop"];
      for (const side of order) {
        const stack = stacks[side];
        takeCpu(cpuDir);
        const before = { ...requests };
        const t0 = performance.now();
        const result = await stack[command]();
        const seconds = (performance.now() - t0) / 1000;
        if (result.code !== 0)
          throw new Error(`pulumi ${command} of ${stack.name} exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
        const sent = requestsSince(requests, before);
        const cpu = takeCpu(cpuDir);
        if (cpu.providers === 0) throw new Error(`pulumi ${command} of ${stack.name}: no provider process reported its CPU`);
        runs[command][side] = {
          seconds,
          requests: sent,
          providerCpuMs: cpu.provider,
          providerProcesses: cpu.providers,
          programCpuMs: cpu.program,
        };
        if (command !== "refresh") {
          const exported = (await stack.must(["stack", "export"])).stdout;
          const resources = (JSON.parse(exported) as StackExport).deployment.resources ?? [];
          const declared = resources.filter((r) => r.custom && !r.type.startsWith("pulumi:providers:")).length;
          const expected = command === "up" ? n : 0;
          if (declared !== expected)
            throw new Error(`after pulumi ${command} the state of ${stack.name} holds ${declared} resources, not ${expected}`);
          if (command === "up") {
            stateBytes[side] = Buffer.byteLength(exported);
            providerFieldBytes[side] = resources.reduce((sum, r) => sum + providerText(r.inputs) + providerText(r.outputs), 0);
          }
        }
      }
    }
    for (const stack of Object.values(stacks)) await stack.remove();
    const figures: Record<string, unknown> = { resources: n };
    for (const command of COMMANDS) {
      const { ours, noop } = runs[command];
      figures[command] = {
        seconds: round(ours.seconds),
        noopSeconds: round(noop.seconds),
        secondsRatioToNoop: round(ours.seconds / noop.seconds),
        httpRequests: total(ours.requests),
        httpRequestsByRoute: ours.requests,
        providerCpuMs: Math.round(ours.providerCpuMs),
        noopProviderCpuMs: Math.round(noop.providerCpuMs),
        providerCpuRatioToNoop: round(ours.providerCpuMs / noop.providerCpuMs),
        // What our provider adds per resource over one that does nothing, our runtime's own start-up included (see `perResource`).
        addedProviderCpuMsPerResource: round((ours.providerCpuMs - noop.providerCpuMs) / n),
        // More than one would mean the engine started the provider twice in one command.
        ...(ours.providerProcesses + noop.providerProcesses === 2
          ? {}
          : { providerProcesses: { ours: ours.providerProcesses, noop: noop.providerProcesses } }),
        // Only `up` runs the program (refresh and destroy work from the state).
        ...(ours.programCpuMs === null
          ? {}
          : { programCpuMs: Math.round(ours.programCpuMs), noopProgramCpuMs: Math.round(noop.programCpuMs ?? 0) }),
      };
    }
    figures.stateBytesPerResource = Math.round(stateBytes.ours / n);
    figures.noopStateBytesPerResource = Math.round(stateBytes.noop / n);
    // Of which the serialized provider (`__provider`, in inputs and outputs): ours a short module reference, the no-op's Pulumi's serialized closure.
    figures.providerFieldBytesPerResource = Math.round(providerFieldBytes.ours / n);
    figures.noopProviderFieldBytesPerResource = Math.round(providerFieldBytes.noop / n);
    return figures;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Both sides pay a fixed start-up (Node, the SDK; ours also loads its runtime), which dominates at 100
 * resources. Between the smallest and the largest size it cancels: the provider CPU each further resource
 * costs, ours and the no-op's, and their ratio.
 */
function perResource(measured: Map<number, Record<string, unknown>>): Record<string, unknown> {
  const sizes = [...measured.keys()].sort((a, b) => a - b);
  const small = sizes[0]!;
  const large = sizes[sizes.length - 1]!;
  const cpu = (n: number, command: Command) => measured.get(n)![command] as { providerCpuMs: number; noopProviderCpuMs: number };
  const out: Record<string, unknown> = { between: [small, large] };
  for (const command of COMMANDS) {
    const ours = (cpu(large, command).providerCpuMs - cpu(small, command).providerCpuMs) / (large - small);
    const noop = (cpu(large, command).noopProviderCpuMs - cpu(small, command).noopProviderCpuMs) / (large - small);
    out[command] = { providerCpuMs: round(ours), noopProviderCpuMs: round(noop), ratioToNoop: round(ours / noop) };
  }
  return out;
}

export async function engineBench(): Promise<Record<string, unknown>> {
  const sizes = process.env.BENCH_ENGINE_N ? process.env.BENCH_ENGINE_N.split(",").map(Number) : SIZES;
  if (sizes.some((n) => !Number.isInteger(n) || n < 3 || n > 2000))
    throw new Error(`BENCH_ENGINE_N: whole numbers 3–2000, not ${process.env.BENCH_ENGINE_N}`);
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-engine-"));
  const cpuDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-engine-cpu-"));
  // The limit off: the figures are the engine's and the provider's, not 600 requests per minute's.
  const server = await startSandboxServer({ dataDir, port: 0, rateLimitPerMinute: 0 });
  const requests = countRequests(server);
  const inherited = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : "";
  const workspace = new PulumiWorkspace({
    env: { NODE_OPTIONS: `${inherited}--require ${JSON.stringify(PROBE)}`, BENCH_ENGINE_CPU_DIR: cpuDir },
  });
  const load = sampleLoad();
  try {
    const token = await benchToken(dataDir);
    const out: Record<string, unknown> = {
      cli: pulumiCliVersion(),
      countedBy: "the sandbox's HTTP server (rate limit off)",
      cpuMeasuredBy: "process.cpuUsage() of the dynamic-provider process (src/engine-cpu-probe.ts)",
    };
    const measured = new Map<number, Record<string, unknown>>();
    for (const n of sizes) {
      measured.set(n, await measureSize(n, workspace, cpuDir, server.url, token, requests));
      out[`n${n}`] = measured.get(n);
    }
    if (measured.size >= 2) out.perResource = perResource(measured);
    out.loadAverage1m = load.stop();
    return out;
  } finally {
    load.stop();
    workspace.dispose();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(cpuDir, { recursive: true, force: true });
  }
}
