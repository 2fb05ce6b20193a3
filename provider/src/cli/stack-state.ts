import { spawnSync } from "node:child_process";
import type { ConfigLookup } from "../runtime/settings";

/** The parts of `pulumi stack export` (apitype.UntypedDeployment, DeploymentV3) the recovery reads. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  inputs?: Record<string, unknown>;
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
  };
}

/** Which stack the Pulumi CLI commands name: `--stack` and `--cwd` (`-C`), when given. */
export interface StackSelector {
  stack?: string;
  cwd?: string;
}

/** The arguments that select the stack for a `pulumi` command, in the order the CLI takes them. */
export function selectorArgs(selector: StackSelector): string[] {
  return [...(selector.cwd ? ["--cwd", selector.cwd] : []), ...(selector.stack ? ["--stack", selector.stack] : [])];
}

/** Runs `pulumi ARGS` and returns its standard output; a failure names the command and what it printed. */
function pulumi(args: string[], selector: StackSelector): string {
  const full = [...args, ...selectorArgs(selector), "--non-interactive"];
  const result = spawnSync("pulumi", full, { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 });
  if (result.error) throw new Error(`could not run pulumi ${args.join(" ")}: ${result.error.message}`, { cause: result.error });
  if (result.status !== 0) throw new Error(`pulumi ${args.join(" ")} failed (exit ${result.status}): ${result.stderr.trim()}`);
  return result.stdout;
}

/** The stack's checkpoint, as `pulumi stack export` prints it (secrets stay encrypted: the recovery needs none). */
export function exportStack(selector: StackSelector): StackExport {
  return JSON.parse(pulumi(["stack", "export"], selector)) as StackExport;
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
