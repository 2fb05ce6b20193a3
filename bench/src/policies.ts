import { performance } from "node:perf_hooks";
import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";
import { AnalyzeResult, AnalyzerResourceInput, RunningPolicyPack, declareResources, startPolicyPack } from "@cloudcost/testkit";

const ANALYZE_CALLS = 2_000;
const BASELINE_CALLS = 1_000;
const STACK_SIZE = 10_000;
const ROUNDS = 5;

/** Templates declared through the provider's real classes; the stack clones them with new names. */
async function templates(): Promise<AnalyzerResourceInput[]> {
  return declareResources(() => {
    const group = new CloudGroup("g", { name: "G", awsAccountIds: ["123456789012"] });
    const alert = new BudgetAlert("a", {
      name: "A",
      amount: 100,
      groupId: group.id,
      recipients: ["a@example.com"],
      thresholds: [
        { percent: 100, basis: "actual" },
        { percent: 100, basis: "forecast" },
      ],
    });
    const report = new ScheduledReport("r", {
      name: "R",
      report: "summary",
      groupId: group.id,
      schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
      recipients: ["a@example.com"],
    });
    return [group, alert, report];
  });
}

/** A stack of `size` resources: groups with distinct accounts, each covered by an alert, plus reports. */
function stackOf(size: number, [group, alert, report]: AnalyzerResourceInput[]): AnalyzerResourceInput[] {
  const out: AnalyzerResourceInput[] = [];
  const rename = (
    r: AnalyzerResourceInput,
    name: string,
    properties: Record<string, unknown>,
    propertyDependencies?: Record<string, string[]>,
  ) => ({
    ...r,
    name,
    urn: r.urn.replace(/::[^:]+$/, `::${name}`),
    properties: { ...r.properties, ...properties },
    propertyDependencies: propertyDependencies ?? r.propertyDependencies,
  });
  for (let i = 0; out.length < size; i++) {
    const g = rename(group!, `g${i}`, { awsAccountIds: [String(100000000000 + i)] });
    out.push(g);
    if (out.length < size) out.push(rename(alert!, `a${i}`, { amount: 10 + (i % 50) }, { groupId: [g.urn] }));
    if (out.length < size) out.push(rename(report!, `r${i}`, {}, { groupId: [g.urn] }));
  }
  return out;
}

async function meanMs(calls: number, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const started = performance.now();
  for (let i = 0; i < calls; i++) await run(i);
  return (performance.now() - started) / calls;
}

async function timeMs(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * `npm run bench -- policies`: Analyze time per resource and AnalyzeStack time for 10,000 resources in the
 * real pack process over gRPC, each against same-run baselines: a GetPluginInfo round trip, and the same
 * Analyze/AnalyzeStack with every policy disabled (transport and decoding only).
 */
export async function policiesBench(): Promise<Record<string, unknown>> {
  const pack: RunningPolicyPack = await startPolicyPack({ env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
  try {
    const resources = await templates();
    const stack = stackOf(STACK_SIZE, resources);
    const analyzeEach = (i: number) => pack.analyze(resources[i % resources.length]!);

    // Rounds alternate between all policies disabled (baseline) and the default configuration, so machine
    // noise hits both alike; each figure is the median of its rounds.
    const analyzeRuns: { on: number[]; off: number[] } = { on: [], off: [] };
    const stackRuns: { on: number[]; off: number[] } = { on: [], off: [] };
    const roundTripMs = await meanMs(BASELINE_CALLS, () => pack.pluginInfo());
    // The diagnostics reported are those of the last round with the default configuration.
    let stackResult: AnalyzeResult | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ["off", "on"] as const) {
        await pack.configure(mode === "off" ? { all: "disabled" } : {});
        analyzeRuns[mode].push(await meanMs(ANALYZE_CALLS / ROUNDS, analyzeEach));
        stackRuns[mode].push(
          await timeMs(async () => {
            const result = await pack.analyzeStack(stack);
            if (mode === "on") stackResult = result;
          }),
        );
      }
    }
    const analyzeMs = median(analyzeRuns.on);
    const analyzeDisabledMs = median(analyzeRuns.off);
    const stackMs = median(stackRuns.on);
    const stackDisabledMs = median(stackRuns.off);
    const byPolicy: Record<string, number> = {};
    for (const d of stackResult?.diagnostics ?? []) byPolicy[d.policyName] = (byPolicy[d.policyName] ?? 0) + 1;

    return {
      analyze: {
        calls: ANALYZE_CALLS,
        msPerResource: round(analyzeMs),
        vsGrpcRoundTrip: round(analyzeMs / roundTripMs, 2),
        vsAllPoliciesDisabled: round(analyzeMs / analyzeDisabledMs, 2),
      },
      analyzeStack: {
        resources: stack.length,
        ms: round(stackMs, 1),
        msPerResource: round(stackMs / stack.length, 4),
        vsAllPoliciesDisabled: round(stackMs / stackDisabledMs, 2),
        diagnostics: byPolicy,
      },
      baselines: {
        grpcRoundTripMs: round(roundTripMs),
        analyzeAllDisabledMs: round(analyzeDisabledMs),
        analyzeStackAllDisabledMs: round(stackDisabledMs, 1),
      },
    };
  } finally {
    await pack.stop();
  }
}
