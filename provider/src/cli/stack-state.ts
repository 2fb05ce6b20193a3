import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConfigLookup } from "../runtime/settings";

/**
 * The parts of `pulumi stack export` (apitype.UntypedDeployment, DeploymentV3, ResourceV3) the recovery reads
 * and edits; every other field is kept as it came (`pulumi stack import` takes the whole document back).
 */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  /** Replaced and still to be deleted (create-before-delete): the next `pulumi up` deletes it. */
  delete?: boolean;
  /** Already deleted by a delete-before-replace whose replacement is still to be made. */
  pendingReplacement?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  /** `<provider URN>::<provider id>`. */
  provider?: string;
  dependencies?: string[];
  [field: string]: unknown;
}

/** `creating`, `updating`, `deleting`, `reading`, `importing` (pulumi resource.OperationType). */
export interface PendingOperation {
  resource: StateResource;
  type: string;
}

export interface StackExport {
  deployment: {
    manifest?: { time?: string };
    resources?: StateResource[];
    pending_operations?: PendingOperation[];
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** Which stack the Pulumi CLI commands name: `--stack` and `--cwd` (`-C`), when given. */
export interface StackSelector {
  stack?: string;
  cwd?: string;
  /** The backend to read instead of the project's (`PULUMI_BACKEND_URL`): a readable copy of a file backend (./diy-backend). */
  backendUrl?: string;
}

/** The arguments that select the stack for a `pulumi` command, in the order the CLI takes them. */
export function selectorArgs(selector: StackSelector): string[] {
  return [...(selector.cwd ? ["--cwd", selector.cwd] : []), ...(selector.stack ? ["--stack", selector.stack] : [])];
}

/** Runs `pulumi ARGS` and returns its standard output; a failure names the command and what it printed. */
function pulumi(args: string[], selector: StackSelector): string {
  const full = [...args, ...selectorArgs(selector), "--non-interactive"];
  const env = selector.backendUrl === undefined ? process.env : { ...process.env, PULUMI_BACKEND_URL: selector.backendUrl };
  const result = spawnSync("pulumi", full, { encoding: "utf8", maxBuffer: 512 * 1024 * 1024, env });
  if (result.error) throw new Error(`could not run pulumi ${args.join(" ")}: ${result.error.message}`, { cause: result.error });
  if (result.status !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${result.status}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** The stack's checkpoint, as `pulumi stack export` prints it (secrets stay encrypted: the recovery needs none). */
export function exportStack(selector: StackSelector): StackExport {
  return JSON.parse(pulumi(["stack", "export"], selector)) as StackExport;
}

/**
 * Replaces the stack's checkpoint with STATE (`pulumi stack import`, which also drops every pending operation:
 * pulumi/pulumi pkg/cmd/pulumi/stack/io.go). The file lives in a private temporary folder and goes with it;
 * secrets in it stay encrypted as exported.
 */
export function importStack(selector: StackSelector, state: StackExport): void {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-pending-"));
  try {
    const file = join(dir, "state.json");
    writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
    pulumi(["stack", "import", "--file", file], selector);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The stack's `cloudcost:` configuration as the provider would see it (secrets decrypted with the stack's
 * own secrets provider, as `pulumi up` does), for finding the credentials; the environment fallbacks apply
 * after it (runtime/settings).
 */
export function stackConfig(selector: StackSelector): ConfigLookup {
  const values = JSON.parse(pulumi(["config", "--json", "--show-secrets"], selector)) as Record<string, { value?: unknown }>;
  return (key) => {
    const value = values[`cloudcost:${key}`]?.value;
    return typeof value === "string" ? value : undefined;
  };
}
