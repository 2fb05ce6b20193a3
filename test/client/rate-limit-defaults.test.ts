/**
 * The client's defaults against the service's own limits (issue 38): the longest `Retry-After` and
 * `RateLimit-Reset` a real sandbox sends with its default one-minute window (here after a budget of 2 is
 * spent at once, so the wait is the whole window) must be one the client waits out, not one it gives up on.
 * The Go client is held to the same answer by terraform-provider-cloudcost/internal/provider/rate_limit_test.go.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { DEFAULT_RETRY } from "@cloudcost/api";
import { cliJson, readyLine, stopChild } from "@cloudcost/testkit";

let child: ChildProcess;
let url: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "cloudcost-limits-"));
  const script = `require("@cloudcost/sandbox").startSandboxServer({ dataDir: process.argv[1], port: 0, rateLimitPerMinute: 2 }).then((s) => console.log(s.url))`;
  child = spawn(process.execPath, ["-e", script, dataDir], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  url = await readyLine(
    child,
    "sandbox",
    (line) => (line.startsWith("http") ? line.trim() : undefined),
    () => stderr,
  );
});
afterAll(async () => {
  if (child) await stopChild(child);
  rmSync(dataDir, { recursive: true, force: true });
});

test("every Retry-After of the service's default window is one the client waits out", async () => {
  const { token } = await cliJson<{ token: string }>(dataDir, ["token", "create", "--org", "demo", "--scopes", "read", "--json"]);
  const get = () => fetch(`${url}/organization`, { headers: { authorization: `Bearer ${token}` } });
  await get();
  await get();
  const refused = await get();
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get("retry-after"));
  const reset = Number(refused.headers.get("ratelimit-reset"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter * 1000).toBeLessThanOrEqual(DEFAULT_RETRY.maxRetryAfterMs);
  expect(reset * 1000).toBeLessThanOrEqual(DEFAULT_RETRY.maxRetryAfterMs);
});
