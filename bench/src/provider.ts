import { readFileSync } from "node:fs";
import { Pool } from "undici";
import { AlertInput, CreateGroup, ReportInput } from "@cloudcost/api";
import { BUDGET_ALERT_DEFAULTS } from "@cloudcost/pulumi";
import { handlers } from "@cloudcost/pulumi/runtime";
import type * as pulumi from "@pulumi/pulumi";
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
const PARALLELISM = 16;
/** `getconf CLK_TCK` on Linux, the unit of `/proc/<pid>/stat` CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;
/** Round trips added to every API request in the "simulated network" settings (a nearby and a typical remote API). */
const SIMULATED_RTTS_MS = [20, 50] as const;
/** Resources per simulated-network setting (they are latency-bound, so fewer suffice). */
const SIMULATED_N = 300;

type Json = Record<string, unknown>;
interface Item {
  kind: ResourceKind;
  name: string;
  inputs: Json;
}

function workload(n: number, prefix: string): Item[] {
  return Array.from({ length: n }, (_, i) => {
    const kind = RESOURCE_KINDS[i % RESOURCE_KINDS.length]!;
    const name = `${prefix}-${i}`;
    if (kind === "CloudGroup") return { kind, name, inputs: { name, ...(i % 6 === 0 ? { awsAccountIds: ["111122223333"] } : {}) } };
    if (kind === "BudgetAlert") return { kind, name, inputs: { name, amount: 100 + i, recipients: ["finops@example.com"] } };
    return {
      kind,
      name,
      inputs: {
        name,
        report: "summary",
        schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
        recipients: ["finops@example.com"],
      },
    };
  });
}

async function inParallel<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: PARALLELISM }, worker));
  return results;
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const t0 = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - t0) / 1000 };
}

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

const PLURAL: Record<ResourceKind, string> = { CloudGroup: "groups", BudgetAlert: "alerts", ScheduledReport: "reports" };

/** The body the provider POSTs for an item: its inputs with the provider's and the contract's defaults. */
function requestBody(item: Item): Json {
  const i = item.inputs;
  if (item.kind === "CloudGroup") return CreateGroup.parse({ name: i.name });
  if (item.kind === "BudgetAlert") return AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, ...i });
  return ReportInput.parse(i);
}

/** The floor: the same HTTP requests the provider makes, sent directly over one undici pool. */
async function direct(baseUrl: string, token: string, items: Item[], listedRead?: () => Promise<number>) {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: PARALLELISM, pipelining: 1 });
  const send = async (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: Json): Promise<Json> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (body) headers["content-type"] = "application/json";
    if (method === "POST") headers["idempotency-key"] = crypto.randomUUID();
    const res = await pool.request({ method, path: `${url.pathname}${path}`, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
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

/**
 * Our runtime in this process, without Pulumi's host (issue 16 item 3): the handlers the host would call
 * (`check` then `create`, `read`, `delete`), at parallelism 16. Reads arrive together, so they are
 * answered from paged listings, exactly as under the host.
 */
async function inProcess(baseUrl: string, token: string, items: Item[]) {
  const config = new Map([
    ["cloudcost:apiUrl", baseUrl],
    ["cloudcost:apiToken", token],
  ]);
  await handlers.CloudGroup.configure({ config: { get: (k: string) => config.get(k) } } as unknown as pulumi.dynamic.ConfigureRequest);
  const create = await timed(() =>
    inParallel(items, async (item) => {
      const h = handlers[item.kind];
      const checked = await h.check({}, item.inputs);
      const created = await h.create(checked.inputs!);
      return { kind: item.kind, id: created.id, outs: created.outs as Json };
    }),
  );
  const read = await timed(() =>
    inParallel(create.result, async (c) => {
      if ((await handlers[c.kind].read(c.id, c.outs)).id !== c.id) throw new Error(`Read ${c.kind} ${c.id} did not find it`);
    }),
  );
  const del = await timed(() => inParallel(create.result, (c) => handlers[c.kind].delete(c.id, c.outs)));
  return { create: create.seconds, read: read.seconds, delete: del.seconds };
}

/** The floor for reads that arrive together: the same requests our runtime sends for them, a paged listing per kind. */
async function directListings(baseUrl: string, token: string): Promise<number> {
  const url = new URL(baseUrl);
  const pool = new Pool(url.origin, { connections: PARALLELISM, pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
  try {
    const t = await timed(() =>
      Promise.all(
        Object.values(PLURAL).map(async (plural) => {
          let cursor: string | null = null;
          do {
            const query: string = `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
            const res = await pool.request({ method: "GET", path: `${url.pathname}/${plural}${query}`, headers });
            const page = (await res.body.json()) as { nextCursor: string | null };
            cursor = page.nextCursor;
          } while (cursor);
        }),
      ),
    );
    return t.seconds;
  } finally {
    await pool.close();
  }
}

/**
 * In-process ops/s and the ratio to the undici floor sending the same requests, on one sandbox. Run in
 * the order ours, floor, floor, ours (half the resources each time) and summed: whichever runs first
 * meets a colder sandbox (JIT, SQLite pages, WAL), which alone moved a ratio by 2× in a single pass.
 */
async function inProcessVersusFloor(sandbox: RunningSandbox, token: string, n: number) {
  const half = Math.ceil(n / 2);
  const zero = { create: 0, read: 0, delete: 0 };
  const ours = { ...zero };
  const floor = { ...zero };
  const add = (to: typeof zero, from: typeof zero) => PHASES.forEach((p) => (to[p] += from[p]));
  const runFloor = async (prefix: string) => {
    // Its read figure is the listings our runtime sends for a burst, taken while the floor's objects exist.
    const f = await direct(sandbox.baseUrl, token, workload(half, prefix), () => directListings(sandbox.baseUrl, token));
    add(floor, { create: f.create, read: f.listedRead, delete: f.delete });
  };
  add(ours, await inProcess(sandbox.baseUrl, token, workload(half, "inproc-a")));
  await runFloor("inproc-floor-a");
  await runFloor("inproc-floor-b");
  add(ours, await inProcess(sandbox.baseUrl, token, workload(half, "inproc-b")));
  const perPhase = (f: (p: (typeof PHASES)[number]) => number) => Object.fromEntries(PHASES.map((p) => [p, f(p)]));
  return {
    resources: 2 * half,
    opsPerSecond: perPhase((p) => Math.round((2 * half) / ours[p])),
    floorOpsPerSecond: perPhase((p) => Math.round((2 * half) / floor[p])),
    ratioToFloor: perPhase((p) => Math.round((floor[p] / ours[p]) * 100) / 100),
  };
}

type Phases = Awaited<ReturnType<typeof throughHost>>;
const PHASES = ["create", "read", "delete"] as const;

/** CPU milliseconds a child process has used so far (Linux `/proc`; 0 where it cannot be read). */
function childCpuMs(pid: number | undefined): number {
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
