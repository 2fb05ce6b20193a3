/**
 * The client paces itself by the server's RateLimit-* headers (issue 16 item 4): against a real sandbox
 * whose limit is 20 requests per 1 s window per identity, 100 calls at parallelism 8 all succeed, and the
 * server refuses none of them, because the client waits for the next window instead of being refused.
 * Two client instances sharing one token (two processes with the same credentials) cannot see each other's
 * spending: they are refused now and then, and every call still succeeds by waiting for the window the
 * refusal names. The sandbox is a plain Node process started through the package's API (a window of one
 * second is not a CLI option).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CloudCostClient, closeAllPools, type RequestEvent } from "@cloudcost/api";
import { spawn, type ChildProcess } from "node:child_process";
import { cliJson, readyLine, stopChild } from "@cloudcost/testkit";

let child: ChildProcess;
let server: { url: string };
let dataDir: string;
const newToken = async () =>
  (await cliJson<{ token: string }>(dataDir, ["token", "create", "--org", "demo", "--scopes", "read,write", "--json"])).token;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "cloudcost-pacing-"));
  const script = `require("@cloudcost/sandbox").startSandboxServer({ dataDir: process.argv[1], port: 0, rateLimitPerMinute: 20, rateLimitWindowMs: 1000 }).then((s) => console.log(s.url))`;
  child = spawn(process.execPath, ["-e", script, dataDir], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const url = await readyLine(
    child,
    "sandbox",
    (line) => (line.startsWith("http") ? line.trim() : undefined),
    () => stderr,
  );
  server = { url };
});
afterAll(async () => {
  await closeAllPools();
  if (child) await stopChild(child);
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(clients: CloudCostClient[], calls: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      while (next < calls) {
        next++;
        expect((await clients[w % clients.length]!.getOrganization()).name).toBeTruthy();
      }
    }),
  );
}

test("100 calls against a limit of 20 per window: all succeed and none is refused", async () => {
  const events: RequestEvent[] = [];
  const client = new CloudCostClient({ baseUrl: server.url, auth: { apiToken: await newToken() }, onRequest: (e) => events.push(e) });
  await run([client], 100);
  expect(events.filter((e) => e.status === 429)).toEqual([]);
  expect(events.filter((e) => e.status === 200)).toHaveLength(100);
});

test("two clients sharing one token: refusals are waited out to the named window, never failed", async () => {
  const events: RequestEvent[] = [];
  const token = await newToken();
  const clients = [0, 1].map(
    () => new CloudCostClient({ baseUrl: server.url, auth: { apiToken: token }, onRequest: (e) => events.push(e) }),
  );
  await run(clients, 100);
  expect(events.filter((e) => e.status === 200)).toHaveLength(100);
  expect(events.every((e) => e.status === 200 || e.status === 429)).toBe(true);
});
