import type { CloudCostClient } from "@cloudcost/api";
import { CREATE_KEY, stackKeyPrefix } from "../runtime/create-key";
import type { PendingOperation, StackExport } from "./stack-state";

/** Creates' keys are kept 24 hours by the service (contract: `IdempotencyRecord`). */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What an interrupted `pulumi up` or `destroy` left in one stack, and where each pending create's object is. */
export interface Recovery {
  /** Pending creates whose object the service has: imported into the state by the refresh. */
  found: { urn: string; type: string; id: string }[];
  /** Pending creates that made no object (their key is unknown to the service): cleared by the refresh. */
  neverCreated: { urn: string; type: string }[];
  /** Pending creates whose object a later `pulumi up` already took into the state (it got the object back by its key): cleared. */
  settled: { urn: string; type: string; id: string }[];
  /** Pending creates this tool cannot settle (no create key in state, or the keys may have expired). */
  unknown: { urn: string; type: string; reason: string }[];
  /**
   * Pending updates, deletes, reads and imports, of any provider's resources: a refresh settles them from what
   * each provider reads (an interrupted `destroy` can leave the stack's own and its provider's deletes too).
   */
  others: { urn: string; type: string; operation: string }[];
  /**
   * Pending creates of other providers' resources: this tool cannot look them up, so it never clears them
   * (`pulumi refresh --clear-pending-creates` would: their objects may exist, and would be orphaned).
   */
  foreignCreates: { urn: string; type: string }[];
  /**
   * Pending creates of what exists only in the state: provider references (`pulumi:providers:*`) and components
   * (the stack, say). Nothing outside the state can be lost, so the refresh clears them with ours.
   */
  stateOnlyCreates: { urn: string; type: string }[];
  /** Objects this stack created that neither its state nor a pending create holds: listed, never deleted. */
  unmanaged: { id: string; key: string; createdAt: string }[];
}

/** Is this a resource of this provider (dynamic `pulumi-nodejs:dynamic/cloudcost:*`, native `cloudcost:*`)? */
const isOurs = (type: string) => type.startsWith("pulumi-nodejs:dynamic/cloudcost:") || type.startsWith("cloudcost:");

/** A recovery that has found nothing yet. */
export function emptyRecovery(): Recovery {
  return { found: [], neverCreated: [], settled: [], unknown: [], others: [], foreignCreates: [], stateOnlyCreates: [], unmanaged: [] };
}

/** A provider reference or a component: a resource with no object outside the state. */
const isStateOnly = (resource: { type: string; custom?: boolean }) =>
  resource.type.startsWith("pulumi:providers:") || resource.custom !== true;

/** Any URN of the stack's state (they all name its stack and project). */
export function someUrn(state: StackExport): string | undefined {
  const { resources = [], pending_operations = [] } = state.deployment;
  return [...resources, ...pending_operations.map((op) => op.resource)][0]?.urn;
}

/** The create-key prefix of the stack, from a URN in its state. */
function stackPrefix(state: StackExport): string | undefined {
  const urn = someUrn(state);
  return urn === undefined ? undefined : stackKeyPrefix(urn);
}

/** The objects the service remembers this stack creating, by key (only those that still exist are listed). */
async function createdByStack(client: CloudCostClient, prefix: string): Promise<Map<string, { id: string; createdAt: string }>> {
  const created = new Map<string, { id: string; createdAt: string }>();
  for await (const record of client.listIdempotencyKeys(prefix)) {
    if (record.resourceId !== null) created.set(record.key, { id: record.resourceId, createdAt: record.createdAt });
  }
  return created;
}

/**
 * Reads what the stack's state leaves pending and finds each pending create's object through its create key
 * (runtime/create-key). The state is only read: nothing in the service or the stack changes here.
 */
export async function findRecovery(state: StackExport, client: CloudCostClient, now: number = Date.now()): Promise<Recovery> {
  const recovery = emptyRecovery();
  const ops: PendingOperation[] = [];
  for (const op of state.deployment.pending_operations ?? []) {
    if (isOurs(op.resource.type)) ops.push(op);
    else if (op.type !== "creating") recovery.others.push({ urn: op.resource.urn, type: op.resource.type, operation: op.type });
    else if (isStateOnly(op.resource)) recovery.stateOnlyCreates.push({ urn: op.resource.urn, type: op.resource.type });
    else recovery.foreignCreates.push({ urn: op.resource.urn, type: op.resource.type });
  }
  const prefix = stackPrefix(state);
  const created = prefix === undefined ? new Map<string, { id: string; createdAt: string }>() : await createdByStack(client, prefix);
  const savedAt = Date.parse(state.deployment.manifest?.time ?? "");
  const keysMayHaveExpired = !Number.isFinite(savedAt) || now - savedAt >= KEY_LIFETIME_MS;
  const inState = new Set((state.deployment.resources ?? []).map((r) => r.id).filter((id): id is string => typeof id === "string"));
  for (const { resource, type } of ops) {
    const { urn } = resource;
    if (type !== "creating") {
      recovery.others.push({ urn, type: resource.type, operation: type });
      continue;
    }
    const key = resource.inputs?.[CREATE_KEY];
    const object = typeof key === "string" ? created.get(key) : undefined;
    if (object && inState.has(object.id)) recovery.settled.push({ urn, type: resource.type, id: object.id });
    else if (object) recovery.found.push({ urn, type: resource.type, id: object.id });
    else if (typeof key !== "string")
      recovery.unknown.push({ urn, type: resource.type, reason: "its state has no create key (written by an older release)" });
    else if (keysMayHaveExpired)
      recovery.unknown.push({ urn, type: resource.type, reason: "it is over 24 hours old, so the service may have forgotten its key" });
    else recovery.neverCreated.push({ urn, type: resource.type });
  }
  const held = new Set([...inState, ...recovery.found.map((f) => f.id)]);
  for (const [key, object] of created) if (!held.has(object.id)) recovery.unmanaged.push({ key, ...object });
  return recovery;
}

/**
 * Whether this provider's creates cannot be settled until another provider's pending create is: writing found
 * creates into the state (`pulumi stack import`) drops every pending operation, and `--clear-pending-creates`
 * clears every pending create, so either would forget theirs, whose objects may exist.
 */
export function blockedByForeignCreates(recovery: Recovery): boolean {
  return recovery.foreignCreates.length > 0 && recovery.found.length + createsToClear(recovery) > 0;
}

/** The pending creates the repair clears: made nothing, already held, or nothing outside the state. */
const createsToClear = (r: Recovery) => r.neverCreated.length + r.settled.length + r.stateOnlyCreates.length;

/**
 * The `pulumi refresh` of the repair (pulumi/pulumi pkg/cmd/pulumi/operations/refresh.go): it reads every
 * resource, which settles every pending operation but the creates, and clears the creates that made nothing or
 * that a later `up` already holds (`--clear-pending-creates`; it clears every pending create, so it is offered
 * only when none is another provider's). The found creates are written into the state before it
 * (./finish-creates: `--import-pending-creates` imports nothing in this Pulumi). Undefined when there is nothing
 * to repair or a create must be looked at by a person first.
 */
export function refreshArgs(recovery: Recovery): string[] | undefined {
  if (recovery.unknown.length > 0 || blockedByForeignCreates(recovery)) return undefined;
  if (pendingCount(recovery) - recovery.foreignCreates.length === 0) return undefined;
  return ["refresh", "--yes", ...(createsToClear(recovery) > 0 ? ["--clear-pending-creates"] : [])];
}

/** How many pending operations the state holds. */
export function pendingCount(r: Recovery): number {
  const theirs = r.others.length + r.foreignCreates.length + r.stateOnlyCreates.length;
  return r.found.length + r.neverCreated.length + r.settled.length + r.unknown.length + theirs;
}
