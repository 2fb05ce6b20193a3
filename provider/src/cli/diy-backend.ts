import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { StackSelector } from "./stack-state";

/**
 * What a killed CLI can leave in a DIY file backend (`file://`, pulumi/pulumi pkg/backend/diy) besides pending
 * operations, both seen in test/engine/interruption:
 * - an empty `<file>.attrs` sidecar: gocloud's fileblob writes a blob's attributes file before it renames the
 *   blob into place, and not atomically, so a kill in between leaves it empty and every command fails with
 *   "failed to load checkpoint: EOF" (the checkpoint itself is whole: the previous one). An absent sidecar
 *   reads as "no attributes", so removing an empty one makes the checkpoint readable again;
 * - the stack's lock (`.pulumi/locks/…/<project>/<stack>/<id>.json`, holding the pid and host of the process
 *   that took it): "the stack is currently locked". A lock whose process is gone from this host is stale.
 */
export interface KillLeftovers {
  /** The backend's folder, when the stack lives in a file backend. */
  root: string;
  emptySidecars: string[];
}

/** The folder of the stack's backend when it is a DIY file backend (`pulumi whoami`); undefined otherwise. */
export function fileBackendRoot(selector: StackSelector): string | undefined {
  const result = spawnSync("pulumi", ["whoami", "--json", "--non-interactive"], { cwd: selector.cwd, encoding: "utf8" });
  if (result.status !== 0) return undefined;
  const url = (JSON.parse(result.stdout) as { url?: string }).url;
  return url?.startsWith("file://") ? fileURLToPath(url.split("?")[0]!) : undefined;
}

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every empty attributes sidecar under the backend's `.pulumi` folder. */
export function emptySidecars(root: string): string[] {
  return filesUnder(join(root, ".pulumi")).filter((path) => path.endsWith(".attrs") && statSync(path).size === 0);
}

/**
 * Runs READ against a copy of the backend without the empty sidecars (what `--apply` would remove), so the
 * look-before-you-act mode reads the checkpoint through the CLI as the repair will, and changes nothing in the
 * backend itself. Only the stacks and the backend's metadata are copied (no history, backups or locks); the
 * copy is private to this process and removed after.
 */
export function withoutEmptySidecars<T>(root: string, sidecars: readonly string[], read: (backendUrl: string) => T): T {
  const copy = mkdtempSync(join(tmpdir(), "cloudcost-backend-"));
  const skipped = new Set(sidecars);
  const from = join(root, ".pulumi");
  const kept = (path: string) => {
    const inside = path.slice(from.length).split(/[\\/]/)[1];
    return !skipped.has(path) && (inside === undefined || inside === "stacks" || inside === "meta.yaml");
  };
  try {
    cpSync(from, join(copy, ".pulumi"), { recursive: true, filter: kept });
    return read(pathToFileURL(copy).href);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

const processGone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
};

/** The stack's locks, each stale or not (its process gone from this host), in a file backend. */
export function stackLocks(root: string, project: string, stack: string): { path: string; stale: boolean }[] {
  return filesUnder(join(root, ".pulumi", "locks"))
    .filter((path) => path.endsWith(".json") && basename(dirname(path)) === stack && basename(dirname(dirname(path))) === project)
    .map((path) => {
      try {
        const lock = JSON.parse(readFileSync(path, "utf8")) as { pid?: unknown; hostname?: unknown };
        return { path, stale: lock.hostname === hostname() && typeof lock.pid === "number" && processGone(lock.pid) };
      } catch {
        return { path, stale: false };
      }
    });
}
