/**
 * Refresh by pages through the REAL Pulumi CLI (issue 33 item 5): `pulumi refresh` of 1,000 resources — groups,
 * alerts of every kind, reports — sends at most 20 requests to the service, in whatever order and at whatever
 * pace the engine sends its Reads, on a quiet machine and beside busy loops alike; the refresh changes nothing
 * in state, and it sees a change made outside Pulumi before it started. Requests are counted by a loopback
 * proxy in front of the sandbox (the provider is pointed at the proxy). The counts depend on no timing.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { AlertInput, CloudCostClient, closeAllPools } from "@cloudcost/api";
import { PulumiWorkspace, startSandbox, type PulumiStack, type RunningSandbox } from "@cloudcost/testkit";
import { z } from "zod";
import { startCountingProxy, type CountingProxy } from "../proof/support/counting-proxy";
import { comparable, copyProgram, credentials, expectSuccess, FIXTURES, TYPES } from "./support";

const RESOURCES = 1_000;
const MAX_REQUESTS = 20;
/** The hang guard of one command: creating 1,000 objects takes about a minute on a quiet machine, many on a busy one. */
const COMMAND_TIMEOUT_MS = 1_500_000;

let sandbox: RunningSandbox;
let proxy: CountingProxy;
let workspace: PulumiWorkspace;
let api: CloudCostClient;
let stack: PulumiStack;

beforeAll(async () => {
  // The limit off: creating 1,000 objects is not what is measured.
  sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
  proxy = await startCountingProxy(sandbox.origin);
  const token = await sandbox.token("read,write");
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  workspace = new PulumiWorkspace();
  stack = await workspace.initStack("many", copyProgram(join(FIXTURES, "refresh-many")), [
    ...credentials(`${proxy.origin}/api/v1`, token),
    { key: "cloudcost-engine-refresh-many:resources", value: String(RESOURCES) },
  ]);
  // The engine saves the state once, at the end, instead of after each of the 1,000 steps (each save writes
  // the whole state: quadratic in the stack's size, most of the file's CPU). Only for this `up`: the
  // refreshes under test run as users run them.
  expectSuccess(await stack.up([], { timeoutMs: COMMAND_TIMEOUT_MS, env: { PULUMI_SKIP_CHECKPOINTS: "true" } }));
});

// No destroy: the sandbox (and its data) and the workspace are thrown away whole.
afterAll(async () => {
  workspace?.dispose();
  await proxy?.close();
  await sandbox?.dispose();
  await closeAllPools();
});

/**
 * Busy loops beside the refresh (the machine, load ~15 on 2 cores, had every core busy with other
 * jobs): `n` processes that spin for at most `seconds` and stop by themselves; the returned function ends
 * them earlier.
 */
function busyLoops(n: number, seconds: number): () => void {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ["-e", `const end = Date.now() + ${seconds * 1000}; while (Date.now() < end);`], { stdio: "ignore" }),
  );
  return () => children.forEach((c) => c.kill());
}

/** `pulumi refresh` at the engine's default parallelism: what it sent, by `METHOD /collection[/{id}]`. */
async function refresh(): Promise<{ total: number; routes: Record<string, number> }> {
  const mark = proxy.seen.length;
  expectSuccess(await stack.refresh([], { timeoutMs: COMMAND_TIMEOUT_MS }));
  const routes: Record<string, number> = {};
  for (const s of proxy.since(mark)) {
    const route = `${s.method} ${s.path.replace(/^\/api\/v1/, "").replace(/\/(grp|alr|rpt)_[^/]+/, "/{id}")}`;
    routes[route] = (routes[route] ?? 0) + 1;
  }
  // The measurement, for the record (the assertions below do not depend on it being printed).
  console.log(`pulumi refresh of ${RESOURCES}: ${proxy.since(mark).length} requests ${JSON.stringify(routes)}`);
  return { total: proxy.since(mark).length, routes };
}

test(`a refresh of ${RESOURCES} resources sends at most ${MAX_REQUESTS} requests and changes nothing`, async () => {
  const resources = (await stack.exportState({ showSecrets: true })).deployment.resources ?? [];
  expect(resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/cloudcost:")).length).toBe(RESOURCES);
  const before = comparable(resources);
  const sent = await refresh();
  expect({ total: sent.total <= MAX_REQUESTS, routes: sent.routes }).toEqual({ total: true, routes: sent.routes });
  // Read gives back exactly what `up` stored (the listings answer what each GET would).
  expect(comparable((await stack.exportState({ showSecrets: true })).deployment.resources ?? [])).toEqual(before);
});

test("beside busy loops, after a change made outside Pulumi: the same bound, and the change is in state", async () => {
  const [alert] = await stack.resourcesOfType(TYPES.alert);
  const current = await api.getAlert(alert!.id!);
  await api.replaceAlert(alert!.id!, { ...z.object(AlertInput.shape).parse(current), amount: current.amount + 1234 });
  // One loop per core: every core stays busy, so the CLI, the language host and the provider host run only
  // in what the loops leave and the Reads come at the scheduler's pace. More loops only stretch the refresh,
  // and every second of it costs each loop a CPU second (8 loops burnt ~100 CPU s here, most of the file);
  // Reads spaced further still, one by one 600 ms apart, are test/provider/paged-refresh.test.ts's.
  const stop = busyLoops(availableParallelism(), 600);
  let sent: Awaited<ReturnType<typeof refresh>>;
  try {
    sent = await refresh();
  } finally {
    stop();
  }
  expect({ total: sent.total <= MAX_REQUESTS, routes: sent.routes }).toEqual({ total: true, routes: sent.routes });
  const [after] = (await stack.resourcesOfType(TYPES.alert)).filter((r) => r.id === alert!.id);
  expect(after?.outputs?.amount).toBe(current.amount + 1234);
});
