import { ApiError, type CloudCostClient } from "@cloudcost/api";
import type { ResourceKind } from "../dynamic-provider";
import { kindOfType } from "../resource-class";
import type { Recovery } from "./pending";
import type { StackExport } from "./stack-state";

/** Something the repair should have done and the state, read back after its refresh, shows it did not. */
export interface Unrepaired {
  urn: string;
  type: string;
  /** The object it concerns, when one is known. */
  id?: string;
  problem: string;
  /** What the user runs to settle it. */
  fix: string;
}

/** Does the service still have object ID of this type (404 → no)? Other failures are thrown with their cause. */
async function exists(client: CloudCostClient, kind: ResourceKind, id: string): Promise<boolean> {
  const get: Record<ResourceKind, (id: string) => Promise<unknown>> = {
    CloudGroup: (i) => client.getGroup(i),
    BudgetAlert: (i) => client.getAlert(i),
    ScheduledReport: (i) => client.getReport(i),
  };
  try {
    await get[kind](id);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    throw e;
  }
}

/** The resource's name: the URN's last part. */
const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * Reads the state after the repair's refresh (`after`) against what the repair set out to do (`recovery`):
 * every found create must now be a live resource under its URN with its object's ID, and no pending operation
 * of this provider may be left. Never trusts that a command did what it was asked: issue 33's refresh said
 * "imported" and imported nothing.
 */
export async function unrepaired(recovery: Recovery, after: StackExport, client: CloudCostClient, selector: string): Promise<Unrepaired[]> {
  const live = (after.deployment.resources ?? []).filter((r) => r.delete !== true);
  const problems: Unrepaired[] = [];
  for (const { urn, type, id } of recovery.found) {
    const held = live.filter((r) => r.urn === urn).map((r) => r.id);
    if (held.includes(id)) continue;
    const kind = kindOfType(type);
    const stillThere = kind === undefined || (await exists(client, kind, id));
    const holds = held.length > 0 ? `the state holds ${held.join(", ")} for it` : "the state does not hold it";
    if (!stillThere) {
      problems.push({
        urn,
        type,
        id,
        problem: `${id} was not imported: it no longer exists (deleted meanwhile?) and ${holds}`,
        fix: `pulumi up${selector}`,
      });
    } else if (type.startsWith("cloudcost:")) {
      problems.push({
        urn,
        type,
        id,
        problem: `${id} was not imported: ${holds}`,
        fix: `pulumi import ${type} ${nameOf(urn)} ${id}${selector}`,
      });
    } else {
      // `pulumi import` cannot read a dynamic resource (pulumi/pulumi#16175): the resource's adoptId takes the object over.
      problems.push({
        urn,
        type,
        id,
        problem: `${id} was not imported: ${holds}`,
        fix: `set adoptId: "${id}" on ${nameOf(urn)} in the program, then run pulumi up${selector}`,
      });
    }
  }
  for (const { resource, type } of after.deployment.pending_operations ?? []) {
    if (kindOfType(resource.type) === undefined) continue;
    problems.push({
      urn: resource.urn,
      type: resource.type,
      ...(resource.id ? { id: resource.id } : {}),
      problem: `still pending (${type}) after the refresh`,
      fix: `npx --package @cloudcost/pulumi cloudcost-pulumi pending --apply${selector}`,
    });
  }
  return problems;
}
