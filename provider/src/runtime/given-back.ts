import type { CloudCostClient, IdempotencyRecord } from "@cloudcost/api";
import { CREATE_KEY, prefixOfKey } from "./create-key";
import type { Props } from "./normalise";

/**
 * An object a create was given back: the service answered its key with the object an earlier create with the
 * same key made (`Idempotent-Replayed: true`, ./create-key). The resource that received it now holds it; the
 * one that made it must never delete it (issue 37). That happens when `--target-replace` (or a tainted
 * resource) is replaced with unchanged inputs within the key's 24 hours: the engine calls Check with no old
 * inputs and never Diff (pulumi step_generator.go isTargetedReplace), so the replacement's create sends the key
 * of the object it replaces and is given that object; then the engine deletes the replaced resource — that
 * very object. Within one process the set below remembers it. An `up` interrupted between the two steps
 * leaves the delete to the next `up`, a new process: there the service's record tells (`replayedAt`), and the
 * holder's own outputs carry {@link GIVEN_BACK}, so that its own delete goes ahead.
 */
export const GIVEN_BACK = "__givenBack";

const givenBackHere = new Set<string>();

/** Records that this process's create was given back `id`; the outputs to store get the mark. */
export function markGivenBack(id: string): Props {
  givenBackHere.add(id);
  return { [GIVEN_BACK]: true };
}

/** The mark in `props` (stored outputs) as a property to carry on; empty when there is none. */
export function keptMark(props: Props): Props {
  return props[GIVEN_BACK] === true ? { [GIVEN_BACK]: true } : {};
}

/** The key listings of this process, one per stack prefix, fetched at the first delete that needs one. */
const listings = new Map<string, Promise<Map<string, IdempotencyRecord>>>();

function listing(client: CloudCostClient, prefix: string): Promise<Map<string, IdempotencyRecord>> {
  let found = listings.get(prefix);
  if (found === undefined) {
    found = (async () => {
      const byKey = new Map<string, IdempotencyRecord>();
      for await (const record of client.listIdempotencyKeys(prefix)) byKey.set(record.key, record);
      return byKey;
    })();
    found.catch(() => listings.delete(prefix)); // a failed listing is asked again by the next delete
    listings.set(prefix, found);
  }
  return found;
}

/**
 * Whether deleting `id` for the resource whose stored outputs are `props` would delete an object a later
 * create holds: the object was given back to another create in this process, or — when this resource is the
 * one whose create made it (no mark) — the service says its key was answered again since.
 */
export async function heldByALaterCreate(client: CloudCostClient, id: string, props: Props): Promise<boolean> {
  if (props[GIVEN_BACK] === true) return false;
  if (givenBackHere.has(id)) return true;
  const key = props[CREATE_KEY];
  const prefix = typeof key === "string" ? prefixOfKey(key) : undefined;
  if (typeof key !== "string" || prefix === undefined) return false;
  const record = (await listing(client, prefix)).get(key);
  return record !== undefined && record.resourceId === id && record.replayedAt !== null;
}
