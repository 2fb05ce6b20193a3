import { Pool } from "undici";

/** Connections per origin; enough for Pulumi's default parallelism with room for cost reads. */
const CONNECTIONS_PER_ORIGIN = 32;

const pools = new Map<string, Pool>();

/** The process-wide keep-alive pool for an origin, shared by every client that talks to it. */
export function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool || pool.closed || pool.destroyed) {
    pool = new Pool(origin, { connections: CONNECTIONS_PER_ORIGIN, keepAliveTimeout: 10_000, pipelining: 1 });
    pools.set(origin, pool);
  }
  return pool;
}

/** Closes every pool (tests, benchmarks and short scripts call it so the process can exit at once). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
