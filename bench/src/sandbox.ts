import { spawn, type ChildProcess } from "node:child_process";
import { Pool } from "undici";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readyLine, stopChild } from "@cloudcost/testkit";
import { benchToken } from "./workload";
import { childCpuMs } from "./provider";

/** Fixed load: this many requests in flight, for this long, per measurement. */
const CONCURRENCY = 16;
const DURATION_MS = 5000;
const LIST_SEED_GROUPS = 60;

interface Measurement {
  requestsPerSecond: number;
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
}

interface Request {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const percentile = (sorted: number[], p: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 100) / 100;

/** Runs `next()` requests with CONCURRENCY workers over one keep-alive pool until DURATION_MS has passed (or `maxRequests` were issued). */
async function load(
  origin: string,
  next: (i: number) => Request,
  maxRequests = Number.POSITIVE_INFINITY,
  durationMs = DURATION_MS,
): Promise<Measurement> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      const req = next(issued++);
      const t0 = performance.now();
      const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
      await res.body.dump();
      latencies.push(performance.now() - t0);
      if (res.statusCode >= 300) failures++;
    }
  };
  let seconds: number;
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    seconds = (performance.now() - started) / 1000;
  } finally {
    await pool.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(latencies.length / seconds),
    requests: latencies.length,
    failures,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** The baseline: a bare fastify route returning a small JSON object, in its own process like the sandbox. */
async function startBareFastify(): Promise<{ origin: string; child: ChildProcess }> {
  const script = `const app = require("fastify")(); app.get("/items", async () => ({ items: [{ id: 1 }], nextCursor: null }));
app.listen({ port: 0, host: "127.0.0.1" }).then(() => console.log("http://127.0.0.1:" + app.server.address().port));`;
  const child = spawn(process.execPath, ["-e", script], { cwd: __dirname, stdio: ["ignore", "pipe", "inherit"] });
  const origin = await readyLine(
    child,
    "bare fastify",
    (line) => (line.startsWith("http://") ? line : undefined),
    () => "(stderr is inherited)",
  );
  return { origin, child };
}

/** The bench's sandbox process (sandbox-server.ts): the whole server plus the same-SQL baseline routes. */
async function startBenchSandbox(): Promise<{ origin: string; dataDir: string; child: ChildProcess }> {
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-sandbox-"));
  // BENCH_SANDBOX_PROF=<dir> writes a CPU profile of the sandbox process there (node --cpu-prof).
  const prof = process.env.BENCH_SANDBOX_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_SANDBOX_PROF] : [];
  const child = spawn(process.execPath, [...prof, join(__dirname, "sandbox-server.js"), dataDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await readyLine(
    child,
    "bench sandbox",
    (line) => /(https?:\/\/\S+)\/api\/v1/.exec(line)?.[1],
    () => "(stderr is inherited)",
  );
  return { origin, dataDir, child };
}

/** Rounds of each pair of measurements, alternated (A B, then B A, ...) so that load drift on a shared machine cancels. */
const ROUNDS = 4;
const ROUND_MS = 2000;
const WARM_UP_MS = 1000;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Ours against its baseline in ROUNDS alternated rounds: the median of the per-round ratios, and both sides' measurements. */
async function alternated(server: ChildProcess, origin: string, ours: (i: number) => Request, baseline: (i: number) => Request) {
  const ourRounds: Measurement[] = [];
  const baseRounds: Measurement[] = [];
  // The sandbox process's CPU per request on each side: unlike requests/s, it hardly moves with other load on the machine.
  const cpu = { ours: { ms: 0, requests: 0 }, baseline: { ms: 0, requests: 0 } };
  // Unmeasured warm-up of both routes (JIT, SQLite pages): the first round measured ours at 0.12 of the baseline without it.
  for (const next of [ours, baseline]) await load(origin, next, Number.POSITIVE_INFINITY, WARM_UP_MS);
  for (let r = 0; r < ROUNDS; r++) {
    const pair = r % 2 === 0 ? [ours, baseline] : [baseline, ours];
    for (const next of pair) {
      const before = childCpuMs(server.pid);
      const m = await load(origin, next, Number.POSITIVE_INFINITY, ROUND_MS);
      const side = next === ours ? cpu.ours : cpu.baseline;
      side.ms += childCpuMs(server.pid) - before;
      side.requests += m.requests;
      (next === ours ? ourRounds : baseRounds).push(m);
    }
  }
  const ratios = ourRounds.map((m, i) => m.requestsPerSecond / baseRounds[i]!.requestsPerSecond);
  return {
    requestsPerSecond: Math.round(median(ourRounds.map((m) => m.requestsPerSecond))),
    baselineRequestsPerSecond: Math.round(median(baseRounds.map((m) => m.requestsPerSecond))),
    ratio: round3(median(ratios)),
    sandboxCpuMsPerRequest: round3(cpu.ours.ms / cpu.ours.requests),
    baselineSandboxCpuMsPerRequest: round3(cpu.baseline.ms / cpu.baseline.requests),
    roundRatios: ratios.map(round3),
    failures: ourRounds.reduce((n, m) => n + m.failures, 0) + baseRounds.reduce((n, m) => n + m.failures, 0),
    p50Ms: median(ourRounds.map((m) => m.p50Ms)),
    p99Ms: median(ourRounds.map((m) => m.p99Ms)),
  };
}

/**
 * `npm run bench -- sandbox`: requests/s of an authenticated list and an authenticated create against a
 * sandbox process on loopback (rate limit off), each against a plain fastify route on the same server
 * running the same SQL on the same connection (issue 16 item 5), alternated; a bare fastify route in its
 * own process is kept as information.
 */
export async function sandboxBench(): Promise<Record<string, unknown>> {
  const bare = await startBareFastify();
  let baseline: Measurement;
  try {
    baseline = await load(bare.origin, () => ({ method: "GET", path: "/items", headers: {} }));
  } finally {
    await stopChild(bare.child);
  }
  const sandbox = await startBenchSandbox();
  try {
    const token = await benchToken(sandbox.dataDir);
    const auth = { authorization: `Bearer ${token}` };
    const post = (path: string, name: string): Request => ({
      method: "POST",
      path,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name }),
    });
    // A full first page (50 of 60 groups) makes the list measurement representative.
    await load(sandbox.origin, (i) => post("/api/v1/groups", `Listed group ${i}`), LIST_SEED_GROUPS);
    const list = await alternated(
      sandbox.child,
      sandbox.origin,
      () => ({ method: "GET", path: "/api/v1/groups?limit=50", headers: auth }),
      () => ({ method: "GET", path: "/bench/same-query/groups?limit=50", headers: auth }),
    );
    // Names are unique per organization: one counter across all rounds.
    let created = 0;
    const create = await alternated(
      sandbox.child,
      sandbox.origin,
      () => post("/api/v1/groups", `Bench group ${created++}`),
      () => post("/bench/same-insert/groups", `Same-insert group ${created++}`),
    );
    const bareRatio = (m: { requestsPerSecond: number }) => round3(m.requestsPerSecond / baseline.requestsPerSecond);
    return {
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      secondsPerRound: ROUND_MS / 1000,
      bareFastify: baseline,
      list: { ...list, ratioToSameQuery: list.ratio, ratioToBareFastify: bareRatio(list) },
      create: { ...create, ratioToSameInsert: create.ratio, ratioToBareFastify: bareRatio(create) },
    };
  } finally {
    await stopChild(sandbox.child);
    rmSync(sandbox.dataDir, { recursive: true, force: true });
  }
}
