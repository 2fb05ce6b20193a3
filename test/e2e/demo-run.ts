import { execFile } from "node:child_process";
import { join } from "node:path";
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { noteCommandEnd, startSandbox } from "@cloudcost/testkit";

const DEMO = join(__dirname, "..", "..", "scripts", "demo.js");

export interface DemoRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run demo`'s script (`node scripts/demo.js --exit`) on `dataDir` and waits for it to end by itself. */
export function runDemo(engine: "cli" | "harness", dataDir: string, timeoutMs: number): Promise<DemoRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEMO, "--exit", "--engine", engine, "--data", dataDir],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        noteCommandEnd("scripts/demo.js", err);
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** What the demo left in its data folder, read through the API of a sandbox started on that folder. */
export interface SandboxState {
  groups: { name: string; source: string }[];
  alerts: number;
  reports: number;
}

export async function stateOf(dataDir: string): Promise<SandboxState> {
  const sandbox = await startSandbox({ dataDir });
  try {
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: await sandbox.token("read") } });
    const all = async <T>(items: AsyncGenerator<T>) => {
      const list: T[] = [];
      for await (const item of items) list.push(item);
      return list;
    };
    const groups = (await all(client.listGroups())).map((g) => ({ name: g.name, source: g.source }));
    return { groups, alerts: (await all(client.listAlerts())).length, reports: (await all(client.listReports())).length };
  } finally {
    await closeAllPools();
    await sandbox.stop();
  }
}
