import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AlertInput, CloudCostClient, closeAllPools } from "@cloudcost/api";
import { BUDGET_ALERT_DEFAULTS } from "@cloudcost/pulumi";
import { startSandboxServer } from "@cloudcost/sandbox";
import { benchToken } from "./workload";

/**
 * Area `rateLimited` (issue 16 item 4): 1,000 client operations (three reads to one create) at
 * parallelism 16 against a sandbox whose limit is LIMIT requests per WINDOW_MS per identity (a short
 * window, so the run spans several). Figures: the share of HTTP requests answered 429, and wall time
 * against the ideal, operations ÷ allowed rate (the server's own limit is the baseline).
 */
const OPERATIONS = 1000;
const PARALLELISM = 16;
const LIMIT = 200;
const WINDOW_MS = 2000;

export async function rateLimitedBench(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-ratelimited-"));
  const server = await startSandboxServer({ dataDir, port: 0, rateLimitPerMinute: LIMIT, rateLimitWindowMs: WINDOW_MS });
  try {
    const newToken = () => benchToken(dataDir);
    // Seeded with another token: the budget is per identity, so the measured client starts with a full one.
    const seeder = new CloudCostClient({ baseUrl: server.url, auth: { apiToken: await newToken() } });
    const groups: string[] = [];
    for (let i = 0; i < 10; i++) groups.push((await seeder.createGroup({ name: `rate ${i}` })).id);
    const statuses = new Map<number, number>();
    const client = new CloudCostClient({
      baseUrl: server.url,
      auth: { apiToken: await newToken() },
      onRequest: (e) => statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1),
    });
    const alert = AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, name: "paced", amount: 10 });
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: PARALLELISM }, async () => {
        while (next < OPERATIONS) {
          const i = next++;
          if (i % 4 === 0) await client.createAlert(alert);
          else await client.getGroup(groups[i % groups.length]!);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
    const idealSeconds = OPERATIONS / (LIMIT / (WINDOW_MS / 1000));
    return {
      operations: OPERATIONS,
      parallelism: PARALLELISM,
      limit: `${LIMIT} per ${WINDOW_MS} ms per identity`,
      httpRequests: requests,
      answered429: statuses.get(429) ?? 0,
      share429: Math.round(((statuses.get(429) ?? 0) / requests) * 1000) / 1000,
      wallSeconds: Math.round(seconds * 100) / 100,
      idealSeconds,
      wallVsIdeal: Math.round((seconds / idealSeconds) * 100) / 100,
    };
  } finally {
    await closeAllPools();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
