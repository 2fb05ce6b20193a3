import { spawnSync } from "node:child_process";
import { clientFor } from "../runtime/clients";
import { findRecovery, pendingCount, refreshArgs, type Recovery } from "./pending";
import { exportStack, selectorArgs, stackConfig, type StackSelector } from "./stack-state";

export interface PendingOptions extends StackSelector {
  /** Run the refresh instead of printing it. */
  apply?: boolean;
  /** Print the findings as JSON (and the refresh's arguments) instead of text. */
  json?: boolean;
}

/** A shell word: single-quoted unless it is plainly safe (URNs hold `$` and `:`). */
const shellWord = (word: string) => (/^[\w./=@,+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

function describe(recovery: Recovery, refresh: string[] | undefined, selector: StackSelector): string[] {
  const lines: string[] = [];
  const pending = pendingCount(recovery);
  lines.push(pending === 0 ? "No pending operations." : `${pending} pending operation(s):`);
  for (const f of recovery.found)
    lines.push(`  create  ${f.urn}\n          made ${f.id} (found by its create key): imported by the refresh`);
  for (const n of recovery.neverCreated)
    lines.push(`  create  ${n.urn}\n          made nothing (the service never saw its key): cleared by the refresh`);
  for (const u of recovery.unknown) lines.push(`  create  ${u.urn}\n          cannot be looked up: ${u.reason}; find it in the portal`);
  for (const o of recovery.others) lines.push(`  ${o.operation.replace(/ing$/, "e")}  ${o.urn}\n          settled by the refresh`);
  if (refresh) lines.push("", "Repair the state with:", `  pulumi ${[...refresh, ...selectorArgs(selector)].map(shellWord).join(" ")}`);
  else if (recovery.unknown.length > 0)
    lines.push(
      "",
      "Look each of those up, then run: pulumi refresh --import-pending-creates URN --import-pending-creates ID (one pair each)",
    );
  if (recovery.unmanaged.length > 0) {
    lines.push("", `${recovery.unmanaged.length} object(s) this stack created are in no state (nothing was deleted):`);
    for (const u of recovery.unmanaged) lines.push(`  ${u.id}  created ${u.createdAt}`);
    lines.push("Adopt each with `pulumi import` (or the resource's adoptId), or delete it in the portal.");
  }
  return lines;
}

/**
 * `cloudcost-pulumi pending`: what an interrupted `pulumi up` or `destroy` left pending in the stack, the
 * one `pulumi refresh` that repairs it (run with `--apply`), and the objects the stack created that no state
 * holds. Resolves with the process exit code: 0 when the state is (now) clean and nothing is unmanaged, 1
 * when something is left for a person.
 */
export async function pendingCommand(options: PendingOptions): Promise<number> {
  const state = exportStack(options);
  const client = clientFor(stackConfig(options));
  const recovery = await findRecovery(state, client);
  const refresh = refreshArgs(recovery);
  if (options.json) process.stdout.write(`${JSON.stringify({ ...recovery, refresh: refresh ?? null }, null, 2)}\n`);
  else process.stdout.write(`${describe(recovery, refresh, options).join("\n")}\n`);
  if (refresh && options.apply) {
    const result = spawnSync("pulumi", [...refresh, ...selectorArgs(options), "--non-interactive"], { stdio: "inherit" });
    if (result.status !== 0) return 1;
    return recovery.unmanaged.length > 0 ? 1 : 0;
  }
  return pendingCount(recovery) === 0 && recovery.unmanaged.length === 0 ? 0 : 1;
}
