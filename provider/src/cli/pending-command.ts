import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { clientFor } from "../runtime/clients";
import { stackOfUrn } from "../runtime/create-key";
import { emptySidecars, fileBackendRoot, stackLocks, withoutEmptySidecars } from "./diy-backend";
import { finishCreates, type FinishedCreates } from "./finish-creates";
import { blockedByForeignCreates, findRecovery, pendingCount, refreshArgs, someUrn, type Recovery } from "./pending";
import { unrepaired, type Unrepaired } from "./repair-check";
import { exportStack, importStack, selectorArgs, stackConfig, type StackExport, type StackSelector } from "./stack-state";

export interface PendingOptions extends StackSelector {
  /** Repair instead of printing how: found creates written into the state, the refresh, the state read back. */
  apply?: boolean;
  /** Print the findings as JSON (with the refresh's arguments, the replaced objects and what is left undone) instead of text. */
  json?: boolean;
}

/** A shell word: single-quoted unless it is plainly safe (URNs hold `$` and `:`). */
const shellWord = (word: string) => (/^[\w./=@,+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The selector as it follows a printed command (empty, or a space and the shell words). */
const selectorText = (selector: StackSelector) =>
  selectorArgs(selector)
    .map((w) => ` ${shellWord(w)}`)
    .join("");

function describe(recovery: Recovery, finished: FinishedCreates, refresh: string[] | undefined, selector: StackSelector): string[] {
  const lines: string[] = [];
  const pending = pendingCount(recovery);
  const replacing = new Map(finished.replaced.map((r) => [r.urn, r.id]));
  lines.push(pending === 0 ? "No pending operations." : `${pending} pending operation(s):`);
  for (const f of recovery.found) {
    const old = replacing.get(f.urn);
    lines.push(`  create  ${f.urn}\n          made ${f.id} (found by its create key): written into the state, then read by the refresh`);
    if (old !== undefined) lines.push(`          it replaces ${old}, which is marked for deletion: the next \`pulumi up\` deletes it`);
  }
  for (const n of recovery.neverCreated)
    lines.push(`  create  ${n.urn}\n          made nothing (the service never saw its key): cleared by the refresh`);
  for (const u of recovery.unknown) lines.push(`  create  ${u.urn}\n          cannot be looked up: ${u.reason}; find it in the portal`);
  for (const o of recovery.others) lines.push(`  ${o.operation.replace(/ing$/, "e")}  ${o.urn}\n          settled by the refresh`);
  for (const c of recovery.stateOnlyCreates)
    lines.push(`  create  ${c.urn}\n          a provider reference or component, nothing outside the state: cleared by the refresh`);
  for (const c of recovery.foreignCreates)
    lines.push(`  create  ${c.urn}\n          another provider's resource: left pending (it may exist; this command cannot look it up)`);
  // Found creates are written into the state by this command (./finish-creates), so that is the one to run then.
  // (While ours wait for another provider's creates, refresh is undefined and foreignAdvice says what comes first.)
  if (refresh && recovery.found.length > 0)
    lines.push("", "Repair the state with:", `  npx --package @cloudcost/pulumi cloudcost-pulumi pending --apply${selectorText(selector)}`);
  else if (refresh)
    lines.push("", "Repair the state with:", `  pulumi ${[...refresh, ...selectorArgs(selector)].map(shellWord).join(" ")}`);
  else if (recovery.unknown.length > 0 && !blockedByForeignCreates(recovery))
    lines.push(
      "",
      "Look each of those up, then adopt what exists (the resource's adoptId) and run: pulumi refresh --clear-pending-creates",
    );
  const advice = foreignAdvice(recovery);
  if (advice) lines.push("", advice);
  if (recovery.unmanaged.length > 0) {
    lines.push("", `${recovery.unmanaged.length} object(s) this stack created are in no state (nothing was deleted):`);
    for (const u of recovery.unmanaged) lines.push(`  ${u.id}  created ${u.createdAt}`);
    // An interrupted create whose step the engine saw fail (its provider died with the request sent) leaves no pending
    // operation, only the object: the program's next `up` asks for it again with the same key and gets it back.
    lines.push(
      "If the program still declares each as it was, `pulumi up` takes it back by its create key (within 24 hours);",
      "otherwise adopt each with `pulumi import` (or the resource's adoptId), or delete it in the portal.",
    );
  }
  return lines;
}

/** What the state read back after the repair shows undone: each object named, with the command that settles it. */
function describeUnrepaired(problems: Unrepaired[]): string {
  const lines = [`The repair did not finish: ${problems.length} resource(s) are not as it set out to leave them:`];
  for (const p of problems) lines.push(`  ${p.urn}`, `          ${p.problem}`, `          fix: ${p.fix}`);
  return `${lines.join("\n")}\n`;
}

/** Runs `pulumi ARGS` for the stack with its output shown (on stderr when stdout carries JSON); whether it succeeded. */
function pulumiShown(args: string[], options: PendingOptions): boolean {
  const stdio = ["inherit", options.json ? 2 : "inherit", "inherit"] as const;
  return spawnSync("pulumi", [...args, ...selectorArgs(options), "--non-interactive"], { stdio: [...stdio] }).status === 0;
}

const FOREIGN_CREATES =
  "Other providers' pending creates are left as they are: check whether each object was made, import what was (pulumi import), then run: pulumi refresh --clear-pending-creates";

const FOREIGN_FIRST =
  "Another provider's create is pending too, and neither writing the state nor `pulumi refresh --clear-pending-creates` would keep it: settle it first (check whether its object was made, import what was, then run `pulumi refresh --clear-pending-creates`). Then run this again, or `pulumi up`, which gets this stack's objects back by their create keys.";

/** What to do about other providers' pending creates, if any are pending. */
const foreignAdvice = (recovery: Recovery): string | undefined =>
  blockedByForeignCreates(recovery) ? FOREIGN_FIRST : recovery.foreignCreates.length > 0 ? FOREIGN_CREATES : undefined;

const UNREADABLE =
  "an interrupted write left these attribute files of the state backend empty, so the Pulumi CLI cannot read the checkpoint";

/**
 * What a killed CLI left in a file backend that would stop every command (./diy-backend): empty attribute
 * sidecars. With `--apply` they are removed; without, they are listed (and the checkpoint is read from a copy
 * without them, so the findings are printed all the same).
 */
function emptySidecarsOf(root: string | undefined, options: PendingOptions): string[] {
  const sidecars = root === undefined ? [] : emptySidecars(root);
  if (sidecars.length > 0 && options.apply) {
    for (const path of sidecars) rmSync(path);
    process.stderr.write(`Removed ${sidecars.length} empty attribute file(s): ${UNREADABLE}.\n`);
    return [];
  }
  return sidecars;
}

/**
 * Before the refresh: a lock left by a killed CLI is removed with `pulumi cancel` when its process is gone from
 * this host; a lock held by a live process, or by another host, stops the repair.
 */
function unlock(root: string | undefined, state: StackExport, options: PendingOptions): boolean {
  const urn = someUrn(state);
  const of = urn === undefined ? undefined : stackOfUrn(urn);
  const locks = root === undefined || of === undefined ? [] : stackLocks(root, of.project, of.stack);
  if (locks.length === 0) return true;
  if (locks.some((lock) => !lock.stale)) {
    process.stderr.write(
      "The stack is locked by a process that is still running or runs on another host; wait for it, or run `pulumi cancel` once you know it is gone.\n",
    );
    return false;
  }
  process.stderr.write("The stack is locked by a process that is gone (the interrupted one): removing the lock with `pulumi cancel`.\n");
  return pulumiShown(["cancel", "--yes"], options);
}

/**
 * `cloudcost-pulumi pending`: what an interrupted `pulumi up` or `destroy` left pending in the stack, how to
 * repair it, and the objects the stack created that no state holds. With `--apply` it first clears what a killed
 * CLI leaves in a file backend (./diy-backend), then writes the found creates into the state (./finish-creates),
 * runs the refresh and reads the state back (./repair-check). Resolves with the process exit code: 0 when the
 * state is (now) clean and nothing is unmanaged, 1 when something is left for a person.
 */
export async function pendingCommand(options: PendingOptions): Promise<number> {
  const root = fileBackendRoot(options);
  const sidecars = emptySidecarsOf(root, options);
  // Left (look mode only): the checkpoint is read from a copy of the backend without them.
  const read = <T>(f: (selector: StackSelector) => T): T =>
    root !== undefined && sidecars.length > 0
      ? withoutEmptySidecars(root, sidecars, (backendUrl) => f({ ...options, backendUrl }))
      : f(options);
  const state = read(exportStack);
  const client = clientFor(read(stackConfig));
  const recovery = await findRecovery(state, client);
  const refresh = refreshArgs(recovery);
  const finished = finishCreates(state, recovery);
  const report = (problems: Unrepaired[] = []) => {
    if (options.json)
      process.stdout.write(
        `${JSON.stringify({ ...recovery, emptySidecars: sidecars, refresh: refresh ?? null, replaced: finished.replaced, unrepaired: problems }, null, 2)}\n`,
      );
  };
  if (!options.json) process.stdout.write(`${describe(recovery, finished, refresh, options).join("\n")}\n`);
  // JSON's readers get the advice the text gives, on stderr.
  const advice = foreignAdvice(recovery);
  if (options.json && advice) process.stderr.write(`${advice}\n`);
  if (sidecars.length > 0)
    process.stderr.write(`${UNREADABLE}; \`--apply\` removes them (or remove them yourself):\n  rm ${sidecars.map(shellWord).join(" ")}\n`);
  if (!options.apply) {
    report();
    return pendingCount(recovery) === 0 && recovery.unmanaged.length === 0 && sidecars.length === 0 ? 0 : 1;
  }
  const unlocked = unlock(root, state, options);
  if (!unlocked || refresh === undefined) {
    report();
    return unlocked && recovery.unknown.length + recovery.unmanaged.length + recovery.foreignCreates.length === 0 ? 0 : 1;
  }
  // The found creates go into the state first (`pulumi stack import`, which drops every pending operation: the
  // refresh would have settled them, and none is another provider's create, or refreshArgs would be undefined);
  // then the refresh reads every resource, those included.
  if (recovery.found.length > 0) importStack(options, finished.state);
  if (!pulumiShown(refresh, options)) {
    report();
    return 1;
  }
  const problems = await unrepaired(recovery, exportStack(options), client, selectorText(options));
  report(problems);
  if (problems.length > 0) {
    process.stderr.write(describeUnrepaired(problems));
    return 1;
  }
  if (finished.replaced.length > 0 && !options.json)
    process.stdout.write(
      `\n${finished.replaced.length} replaced object(s) are marked for deletion: run \`pulumi up${selectorText(options)}\` to delete them.\n`,
    );
  return recovery.unmanaged.length + recovery.foreignCreates.length > 0 ? 1 : 0;
}
