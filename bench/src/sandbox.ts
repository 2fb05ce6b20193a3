import { spawn, type ChildProcess } from "node:child_process";
import { Pool } from "undici";
import { readyLine, stopChild, startSandbox } from "@cloudcost/testkit";

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
async function load(origin: string, next: (i: number) => Request, maxRequests = Number.POSITIVE_INFINITY): Promise<Measurement> {
  const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + DURATION_MS;
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
    20_000,
    (line) => (line.startsWith("http://") ? line : undefined),
    () => "(stderr is inherited)",
  );
  return { origin, child };
}

/**
 * `npm run bench -- sandbox`: requests/s of an authenticated list and an authenticated create against a
 * sandbox process on loopback (rate limit off), next to a bare fastify route measured in the same run.
 */
export async function sandboxBench(): Promise<Record<string, unknown>> {
  const bare = await startBareFastify();
  let baseline: Measurement;
  try {
    baseline = await load(bare.origin, () => ({ method: "GET", path: "/items", headers: {} }));
  } finally {
    await stopChild(bare.child);
  }
  const sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
  try {
    const auth = { authorization: `Bearer ${await sandbox.token()}` };
    // A full first page (50 groups with members) makes the list measurement representative.
    await load(
      sandbox.origin,
      (i) => ({
        method: "POST",
        path: "/api/v1/groups",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: `Listed group ${i}` }),
      }),
      LIST_SEED_GROUPS,
    );
    const list = await load(sandbox.origin, () => ({ method: "GET", path: "/api/v1/groups?limit=50", headers: auth }));
    const create = await load(sandbox.origin, (i) => ({
      method: "POST",
      path: "/api/v1/groups",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: `Bench group ${i}` }),
    }));
    return {
      concurrency: CONCURRENCY,
      secondsPerMeasurement: DURATION_MS / 1000,
      bareFastify: baseline,
      listGroups: { ...list, ratioToBareFastify: Math.round((list.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000 },
      createGroup: { ...create, ratioToBareFastify: Math.round((create.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000 },
    };
  } finally {
    await sandbox.dispose();
  }
}
