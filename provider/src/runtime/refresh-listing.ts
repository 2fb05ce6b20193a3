import type { CloudCostClient } from "@cloudcost/api";
import type { ResourceSpec } from "./resource-spec";
import type { Props } from "./normalise";

/*
 * Refresh by pages (issue 16 item 1, reworked by issue 33 item 5). A refresh of N resources is N Reads; the
 * engine sends them at parallelism 16, in its own order (groups first, alerts after the groups they use) and
 * at whatever pace the machine allows. Answering each with its own `GET /{kind}/{id}` costs N requests, so
 * the Reads of one kind for one client (= one set of credentials, so one organization) are answered from ONE
 * listing of that kind (pages of 200), fetched once in the process and kept for the rest of it.
 *
 * Nothing here depends on when a Read arrives: the first Read of a kind takes its own GET (a lone
 * `Resource.get` costs one request, not a listing), the second starts the listing (single-flight: every
 * Read that arrives while it is fetched waits for it), and every later Read of the kind is answered from
 * it. A refresh of N resources of K kinds therefore costs at most K GETs plus the listings' pages, in any
 * order and under any load. (Issue 33: the earlier rule — a listing only for Reads arriving within a few
 * milliseconds of each other — sent one GET per Read whenever the first Read of a kind came alone.)
 *
 * Why the listing may serve the whole process: Pulumi starts provider plugins afresh for every operation
 * (`pulumi refresh`, `up`, `preview`; the dynamic-provider host and our native plugin alike), so the
 * listing is always fetched after the operation started and sees every change made outside Pulumi
 * before it — which is what a refresh promises; a change made while the refresh runs may or may not be
 * seen, as with one GET per resource. What keeps every answer what `GET /{kind}/{id}` would say:
 *  - an id missing from the listing is confirmed with its own GET (404 there, and only there, is "gone");
 *  - a listing that fails (any error after the client's retries) or would exceed MAX_ITEMS is not used:
 *    every later Read of that kind takes its own GET;
 *  - an object this process creates, updates or deletes is never answered from the listing again (its
 *    next Read takes its own GET), even when the listing was still being fetched during the write.
 */

/** Page size: the contract's maximum `limit` (api contract/common.ts). */
const PAGE_SIZE = 200;
/** Largest listing taken (50 pages); a bigger organization is read with GETs. */
const MAX_ITEMS = 10_000;

interface KindReads {
  /** Reads of this kind answered or under way in this process. */
  reads: number;
  /** Started by the second Read; resolves to undefined when the listing is not usable. */
  listing?: Promise<Map<string, unknown> | undefined>;
  /** Objects written through this process: the listing's copy of them may be older than the write. */
  written: Set<string>;
}

const byClient = new WeakMap<CloudCostClient, Map<string, KindReads>>();

function kindReads(client: CloudCostClient, typeName: string): KindReads {
  let kinds = byClient.get(client);
  if (!kinds) {
    kinds = new Map();
    byClient.set(client, kinds);
  }
  let k = kinds.get(typeName);
  if (!k) {
    k = { reads: 0, written: new Set() };
    kinds.set(typeName, k);
  }
  return k;
}

async function listAll<C extends Props, L extends { id: string }>(
  spec: ResourceSpec<C, L>,
  client: CloudCostClient,
): Promise<Map<string, unknown> | undefined> {
  const items = new Map<string, unknown>();
  try {
    for await (const live of spec.list(client, PAGE_SIZE)) {
      items.set(live.id, live);
      if (items.size > MAX_ITEMS) return undefined;
    }
  } catch {
    // The listing is an optimisation: whatever went wrong, each Read asks for its own object instead.
    return undefined;
  }
  return items;
}

/**
 * The live object `id` for a Read, exactly as `spec.get` returns it: from the kind's listing when the
 * listing has it (and this process has not written it since), else from its own GET (which rejects with the
 * API's 404 when it is gone).
 */
export async function liveForRead<C extends Props, L extends { id: string }>(
  spec: ResourceSpec<C, L>,
  client: CloudCostClient,
  id: string,
): Promise<L> {
  const k = kindReads(client, spec.typeName);
  k.reads++;
  if (k.reads === 1) return spec.get(client, id);
  k.listing ??= listAll(spec, client);
  const items = await k.listing;
  const found = k.written.has(id) ? undefined : (items?.get(id) as L | undefined);
  return found ?? spec.get(client, id);
}

/** A write of object `id` through this process: from now on its Reads take their own GET. */
export function wroteObject(client: CloudCostClient, typeName: string, id: string): void {
  kindReads(client, typeName).written.add(id);
}
