import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandboxServer } from "@cloudcost/sandbox";

/**
 * What the areas that drive the real Pulumi CLI share (`engine`: ours against a no-op provider; `doors`: the
 * native plugin against the dynamic provider): the program copied out of the repository, the CPU the probe
 * wrote, the requests the sandbox counted, the load average beside the figures.
 */

/** Compiled to bench/dist/bench/src: the repository is four levels up. */
export const REPO = join(__dirname, "..", "..", "..", "..");
export const PROGRAM = join(REPO, "bench", "programs", "many");
export const PROBE = join(__dirname, "engine-cpu-probe.js");

export const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The program copied to a temporary folder with the repository's node_modules linked in (as test/engine does),
 * so no stack file lands in the repository; PULUMI_YAML is appended to its Pulumi.yaml (e.g. `plugins:`).
 */
export function copyProgram(pulumiYaml = ""): string {
  const copy = mkdtempSync(join(tmpdir(), "cloudcost-bench-engine-program-"));
  cpSync(PROGRAM, copy, { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"), "dir");
  if (pulumiYaml) appendFileSync(join(copy, "Pulumi.yaml"), `\n${pulumiYaml}`);
  return copy;
}

/** What the probe wrote (and removes it): CPU ms per role, and how many provider processes reported. */
export function takeCpu(dir: string): { provider: number; providers: number; program: number | null } {
  let provider = 0;
  let providers = 0;
  let program: number | null = null;
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    const { role, userUs, systemUs } = JSON.parse(readFileSync(path, "utf8")) as { role: string; userUs: number; systemUs: number };
    rmSync(path);
    const ms = (userUs + systemUs) / 1000;
    if (role === "provider") {
      provider += ms;
      providers++;
    } else program = (program ?? 0) + ms;
  }
  return { provider, providers, program };
}

/** Counts every request the sandbox's HTTP server receives, as `METHOD /collection` (ids and query left out), e.g. `DELETE /alerts`. */
export function countRequests(server: RunningSandboxServer): Record<string, number> {
  const requests: Record<string, number> = {};
  server.app.server.on("request", (req: { method?: string; url?: string }) => {
    const collection = new URL(req.url ?? "/", "http://x").pathname.replace(/^\/api\/v1/, "").split("/")[1] ?? "";
    const route = `${req.method ?? "?"} /${collection}`;
    requests[route] = (requests[route] ?? 0) + 1;
  });
  return requests;
}

/**
 * Counts the sandbox's answers with STATUS (e.g. 429, "Too many requests"), as the response is finished: with the
 * rate limit on, how often a door ran into the wall (and waited) rather than pacing under it.
 */
export function countAnswers(server: RunningSandboxServer, status: number): { count: number } {
  const counter = { count: 0 };
  server.app.server.on("request", (_req: unknown, res: { statusCode: number; on(event: "finish", listener: () => void): unknown }) => {
    res.on("finish", () => {
      if (res.statusCode === status) counter.count++;
    });
  });
  return counter;
}

/** The requests counted since BEFORE (a copy of the counter taken then), routes with none left out. */
export function requestsSince(requests: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(requests)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** The one-minute load average every 5 s: the machine is shared, so the figures come with it. */
export function sampleLoad(): { stop: () => { min: number; max: number } } {
  const load: number[] = [loadavg()[0]!];
  const sampler = setInterval(() => load.push(loadavg()[0]!), 5_000);
  return {
    stop: () => {
      clearInterval(sampler);
      load.push(loadavg()[0]!);
      return { min: round(Math.min(...load)), max: round(Math.max(...load)) };
    },
  };
}
