/**
 * What the seeded interruption suites share (interruption.test.ts: creates and deletes; interrupted-replace.test.ts:
 * replaces): the seeded generator, waiting out the processes a killed CLI orphaned, and `cloudcost-pulumi pending`
 * run as the published bin.
 */
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { descendants, type ProcessInfo, type PulumiResult, type PulumiStack } from "@cloudcost/testkit";
import type { Recovery } from "../../provider/src/cli/pending";
import { REPO } from "./support";

export const PENDING_CLI = join(REPO, "provider", "dist", "cli", "main.js");

/** mulberry32: a small seeded generator, so a failing run can be repeated point for point. */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Processes orphaned by a killed CLI finish what they were sending, as they would on a user's machine; then
 * they go too, so none outlives the test.
 */
export async function reapOrphans(group: ProcessInfo[]): Promise<void> {
  for (let waited = 0; waited < 5_000 && group.some((p) => alive(p.pid)); waited += 100) await sleep(100);
  for (const p of group) if (alive(p.pid)) process.kill(p.pid, "SIGKILL");
}

/**
 * Kills a CLI and every process of its group (SIGKILL to the group, as `kill -9 -PGID`); returns the processes below
 * it a moment before, for reapOrphans: the engine starts its plugins in groups of their own, so they outlive it.
 */
export function killGroup(pid: number): ProcessInfo[] {
  const group = descendants(pid);
  process.kill(-pid, "SIGKILL");
  return group;
}

/** Runs `cloudcost-pulumi pending` for the stack (the published bin, run by Node as npm links it). */
export function pending(stack: PulumiStack, args: string[]): Promise<PulumiResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PENDING_CLI, "pending", "--stack", stack.name, "--cwd", stack.cwd, ...args], {
      env: stack.workspace.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The stack's checkpoint file in the workspace's file backend. */
export function checkpointOf(root: string, stack: string): string {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
  const found = walk(join(root, ".pulumi", "stacks")).filter((p) => p.endsWith(`/${stack}.json`));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** `pending --json`'s findings (provider/src/cli/pending.ts `Recovery`). */
export type Findings = Recovery;
