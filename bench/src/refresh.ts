import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandboxServer, type RunningSandboxServer } from "@cloudcost/sandbox";
import { leanEngine, type EncodedState } from "@cloudcost/testkit";
import { providerTexts, RESOURCE_KINDS, startConfiguredHost, urn, type ResourceKind } from "@cloudcost/testkit";
import { benchToken } from "./workload";

/**
 * Area `refresh` (issue 16 item 1): a refresh of N ≥ 1,000 resources of the three kinds through the REAL
 * dynamic-provider host, Reads driven at the engine's parallelism (16) by the lean engine stand-in,
 * against a sandbox with its DEFAULT rate limit (600 requests per minute per identity). Requests are
 * counted by the sandbox (in this process, `server.on("request")`). The objects are created beforehand
 * on the same data folder with the limit off (creating 1,000 under 600/min would take 100 s), then the
 * sandbox restarts with its default limit. In the same run: the same Reads one at a time, counted the same way
 * on a third start without a limit — the same listings answer them (issue 33: the count depends on neither the
 * order nor the pace of the Reads); one GET per resource would be N + 1.
 */
const PARALLELISM = 16;

interface Stored {
  urn: string;
  id: string;
  state: EncodedState;
}

interface CountingServer {
  server: RunningSandboxServer;
  count: () => number;
}

async function serve(dataDir: string, rateLimitPerMinute?: number): Promise<CountingServer> {
  const server = await startSandboxServer({ dataDir, port: 0, ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }) });
  let n = 0;
  server.app.server.on("request", () => n++);
  return { server, count: () => n };
}

async function inParallel<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: PARALLELISM }, worker));
}

function inputsFor(kind: ResourceKind, name: string, i: number): Record<string, unknown> {
  if (kind === "CloudGroup") return { name, ...(i % 6 === 0 ? { awsAccountIds: ["111122223333"] } : {}) };
  if (kind === "BudgetAlert")
    return { name, amount: 100 + i, recipients: ["finops@example.com"], webhookUrl: "https://hooks.example.com/x" };
  return { name, report: "summary", schedule: { frequency: "daily", time: "09:00", timezone: "UTC" }, recipients: ["finops@example.com"] };
}

/** Reads every stored resource through a fresh host; the number of HTTP requests the sandbox received and the seconds. */
async function refresh(
  sb: CountingServer,
  token: string,
  stored: Stored[],
  parallel: boolean,
): Promise<{ requests: number; seconds: number }> {
  const host = await startConfiguredHost(sb.server.url, token);
  const engine = leanEngine(host.address);
  try {
    const before = sb.count();
    const t0 = performance.now();
    const readOne = async (s: Stored) => {
      if ((await engine.read(s.urn, s.id, s.state)) !== s.id) throw new Error(`Read ${s.urn} did not find ${s.id}`);
    };
    if (parallel) await inParallel(stored, readOne);
    else for (const s of stored) await readOne(s);
    return { requests: sb.count() - before, seconds: (performance.now() - t0) / 1000 };
  } finally {
    engine.close();
    await host.stop();
  }
}

export async function refreshBench(): Promise<Record<string, unknown>> {
  const n = Math.max(1000, Number(process.env.BENCH_REFRESH_N ?? 1002));
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-refresh-"));
  const texts = await providerTexts();
  try {
    // 1. Create the stack with the limit off.
    let sb = await serve(dataDir, 0);
    let stored: Stored[];
    try {
      const token = await benchToken(dataDir);
      const host = await startConfiguredHost(sb.server.url, token);
      const engine = leanEngine(host.address);
      try {
        stored = [];
        const items = Array.from({ length: n }, (_, i) => ({ kind: RESOURCE_KINDS[i % 3]!, i }));
        await inParallel(items, async ({ kind, i }) => {
          const u = urn(kind, `refresh-${i}`);
          const created = await engine.create(u, await engine.check(u, { ...inputsFor(kind, `refresh ${i}`, i), __provider: texts[kind] }));
          stored.push({ urn: u, id: created.id, state: created.properties });
        });
      } finally {
        engine.close();
        await host.stop();
      }
    } finally {
      await sb.server.close();
    }
    // 2. The refresh, against the default rate limit, with a token of its own (the limit is per identity).
    sb = await serve(dataDir);
    let paged: { requests: number; seconds: number };
    try {
      paged = await refresh(sb, await benchToken(dataDir), stored, true);
    } finally {
      await sb.server.close();
    }
    // 3. The same Reads one at a time (limit off so it ends): the listings answer them too.
    sb = await serve(dataDir, 0);
    let perResource: { requests: number; seconds: number };
    try {
      perResource = await refresh(sb, await benchToken(dataDir), stored, false);
    } finally {
      await sb.server.close();
    }
    return {
      resources: stored.length,
      parallelism: PARALLELISM,
      httpRequests: paged.requests,
      // The refresh's own wall time (run.ts then records the whole area's time as `areaSeconds`).
      seconds: Math.round(paged.seconds * 100) / 100,
      oneAtATimeRequests: perResource.requests,
      oneAtATimeSeconds: Math.round(perResource.seconds * 100) / 100,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
