import { readFileSync } from "node:fs";
import { Pool } from "undici";
import { inProcessVersusFloor } from "./in-process";
import { floorSender, inParallel, PARALLELISM, PHASES, PLURAL, requestBody, timed, workload, type Item } from "./workload";
import {
  leanEngine,
  type EncodedState,
  providerTexts,
  RESOURCE_KINDS,
  startConfiguredHost,
  urn,
  type ProviderHost,
  type ResourceKind,
  startSandbox,
  type RunningSandbox,
} from "@cloudcost/testkit";

/**
 * Area `provider`: N resources (default 1,000; `BENCH_PROVIDER_N` lowers it), a mix of groups (half with a
 * member), alerts and reports, created, read and deleted through the REAL dynamic-provider host at
 * parallelism 16 against the sandbox (rate limit off). Baseline: the same HTTP calls issued directly with
 * undici, in the same run. Also the serialized `__provider` bytes per type and host cold start to the
 * first completed Create. HTTP requests per operation are the `requests` area's (counted by the sandbox).
 */
/** `getconf CLK_TCK` on Linux, the unit of `/proc/<pid>/stat` CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;
/** Round trips added to every API request in the "simulated network" settings (a nearby and a typical remote API). */
const SIMULATED_RTTS_MS = [20, 50] as const;
/** Resources per simulated-network setting (they are latency-bound, so fewer suffice). */
const SIMULATED_N = 300;

interface Created {
  urn: string;
  id: string;
  state: EncodedState;
}

/**
 * Check + Create, Read, Delete of every item through the host, driven by the lean engine stand-in (see
 * lean-engine.ts for why not a grpc-js client); seconds per phase. Every read must find its object.
 */
async function throughHost(host: ProviderHost, texts: Record<ResourceKind, string>, items: Item[]) {
  const engine = leanEngine(host.address);
  try {
    const create = await timed(() =>
      inParallel(items, async (item): Promise<Created> => {
        const u = urn(item.kind, item.name);
        const created = await engine.create(u, await engine.check(u, { ...item.inputs, __provider: texts[item.kind] }));
        return { urn: u, id: created.id, state: created.properties };
      }),
    );
    const read = await timed(() =>
      inParallel(create.result, async (c) => {
        if ((await engine.read(c.urn, c.id, c.state)) !== c.id) throw new Error(`Read ${c.urn} did not find ${c.id}`);
      }),
    );
    const del = await timed(() => inParallel(create.result, (c) => engine.delete(c.urn, c.id, c.state)));
    return { create: create.seconds, read: read.seconds, delete: del.seconds };
  } finally {
    engine.close();
  }
}

/** The floor: the same HTTP requests the provider makes, sent directly over one undici pool. */
async function direct(baseUrl: string, token: string, items: Item[], listedRead?: () => Promise<number>) {
  const pool = new Pool(new URL(baseUrl).origin, { connections: PARALLELISM, pipelining: 1 });
  const send = floorSender(baseUrl, token, pool);
  // Built before the clock starts, as the provider's check has built them before its Create.
  const prepared = items.map((item) => ({ item, body: requestBody(item) }));
  try {
    const create = await timed(() =>
      inParallel(prepared, async ({ item, body }) => {
        const created = await send("POST", `/${PLURAL[item.kind]}`, body);
        const members = item.inputs.awsAccountIds as string[] | undefined;
        if (members)
          await send("PUT", `/groups/${String(created.id)}/members`, {
            members: members.map((accountId) => ({ provider: "aws", accountId })),
          });
        return { kind: item.kind, id: String(created.id) };
      }),
    );
    const read = await timed(() => inParallel(create.result, (c) => send("GET", `/${PLURAL[c.kind]}/${c.id}`)));
    const listed = listedRead ? await listedRead() : read.seconds;
    const del = await timed(() => inParallel(create.result, (c) => send("DELETE", `/${PLURAL[c.kind]}/${c.id}`)));
    return { create: create.seconds, read: read.seconds, listedRead: listed, delete: del.seconds };
  } finally {
    await pool.close();
  }
}

type Phases = Awaited<ReturnType<typeof throughHost>>;

/** CPU milliseconds a child process has used so far (Linux `/proc`; 0 where it cannot be read). */
export function childCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const ownCpuMs = () => (process.cpuUsage().user + process.cpuUsage().system) / 1000;

/** Where the CPU of a run went, in ms per operation, per process; `self` names what this process does in it. */
async function cpuPerOperation<T>(
  pids: Record<string, number | undefined>,
  self: string,
  ops: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpuMsPerOp: Record<string, number> }> {
  const read = (): Record<string, number> => ({
    ...Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, childCpuMs(pid)])),
    [`${self} (this process)`]: ownCpuMs(),
  });
  const before = read();
  const result = await work();
  const after = read();
  return {
    result,
    cpuMsPerOp: Object.fromEntries(Object.keys(after).map((k) => [k, Math.round(((after[k]! - before[k]!) / ops) * 100) / 100])),
  };
}

/** Ops/s through the host and of the undici floor, their ratio, and CPU per operation, for one sandbox. */
async function versusFloor(sandbox: RunningSandbox, token: string, texts: Record<ResourceKind, string>, n: number, prefix: string) {
  const host = await startConfiguredHost(sandbox.baseUrl, token);
  let viaHost: { result: Phases; cpuMsPerOp: Record<string, number> };
  try {
    const pids = { "provider host": host.process.pid, sandbox: sandbox.process.pid };
    viaHost = await cpuPerOperation(pids, "engine stand-in", n * PHASES.length, () =>
      throughHost(host, texts, workload(n, `${prefix}-host`)),
    );
  } finally {
    await host.stop();
  }
  const floor = await cpuPerOperation({ sandbox: sandbox.process.pid }, "undici client", n * PHASES.length, () =>
    direct(sandbox.baseUrl, token, workload(n, `${prefix}-floor`)),
  );
  const perPhase = (f: (p: (typeof PHASES)[number]) => number) => Object.fromEntries(PHASES.map((p) => [p, f(p)]));
  return {
    resources: n,
    opsPerSecond: perPhase((p) => Math.round(n / viaHost.result[p])),
    floorOpsPerSecond: perPhase((p) => Math.round(n / floor.result[p])),
    ratioToFloor: perPhase((p) => Math.round((floor.result[p] / viaHost.result[p]) * 100) / 100),
    cpuMsPerOperation: { viaHost: viaHost.cpuMsPerOp, floor: floor.cpuMsPerOp },
  };
}

/** Host cold start: spawn, Configure, Check and the first completed Create. */
async function coldStart(sandbox: RunningSandbox, token: string, texts: Record<ResourceKind, string>): Promise<number> {
  const t0 = performance.now();
  const host = await startConfiguredHost(sandbox.baseUrl, token);
  try {
    const first = workload(1, "cold")[0]!;
    const checked = await host.check(urn(first.kind, first.name), {}, { ...first.inputs, __provider: texts[first.kind] });
    const created = await host.create(urn(first.kind, first.name), checked.inputs);
    const ms = Math.round(performance.now() - t0);
    await host.delete(urn(first.kind, first.name), created.id, created.properties);
    return ms;
  } finally {
    await host.stop();
  }
}

/**
 * Three settings: plain loopback, where the engine stand-in, the host and the sandbox share this machine's
 * two cores (the ratio then measures CPU per operation, the provider's worst case), and the same run with
 * every API request delayed by a simulated network round trip (the sandbox's `latency` fault at rate 1),
 * which is what a real, remote API looks like to a provider; the sandbox still shares the two cores.
 */
export async function providerBench(): Promise<Record<string, unknown>> {
  const n = Math.max(3, Number(process.env.BENCH_PROVIDER_N ?? 1000));
  const sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
  try {
    const token = await sandbox.token();
    const texts = await providerTexts();
    const hostColdStartToFirstCreateMs = await coldStart(sandbox, token, texts);
    const inProcessFigures = await inProcessVersusFloor(sandbox, token, n);
    // BENCH_PROVIDER_ONLY=inProcess: only the in-process comparison (issue 16 item 3), for a quick look while working on it.
    if (process.env.BENCH_PROVIDER_ONLY === "inProcess") return { parallelism: PARALLELISM, inProcess: inProcessFigures };
    const loopback = await versusFloor(sandbox, token, texts, n, "loopback");
    const simulated: Record<string, unknown> = {};
    for (const rtt of SIMULATED_RTTS_MS)
      simulated[`simulatedNetwork${rtt}ms`] = await withLatency(rtt, (remote, remoteToken) =>
        versusFloor(remote, remoteToken, texts, Math.min(n, SIMULATED_N), `remote${rtt}`),
      );
    return {
      parallelism: PARALLELISM,
      inProcess: inProcessFigures,
      loopback,
      ...simulated,
      serializedProviderBytes: Object.fromEntries(RESOURCE_KINDS.map((k) => [k, Buffer.byteLength(texts[k])])),
      hostColdStartToFirstCreateMs,
    };
  } finally {
    await sandbox.dispose();
  }
}

/** A sandbox that delays every API request by `rttMs`, for the duration of `work`. */
async function withLatency<T>(rttMs: number, work: (sandbox: RunningSandbox, token: string) => Promise<T>): Promise<T> {
  const remote = await startSandbox({
    args: ["--rate-limit", "0", "--faults", "1", "--fault-kinds", "latency", "--fault-latency-ms", String(rttMs)],
  });
  try {
    return await work(remote, await remote.token());
  } finally {
    await remote.dispose();
  }
}
