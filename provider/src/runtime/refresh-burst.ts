import type { CloudCostClient } from "@cloudcost/api";
import type { ResourceSpec } from "./resource-spec";
import type { Props } from "./normalise";

/*
 * Refresh by pages (issue 16 item 1). The engine runs Read at parallelism 16 (`pulumi refresh -p`,
 * default 16): a refresh of N resources is a stream of Reads arriving together. Reads of one kind for one
 * client (= one set of credentials, so one organization) that arrive together are answered from ONE
 * listing of that kind (pages of 200), fetched once (single-flight). The rules that keep every answer what
 * `GET /{kind}/{id}` would say:
 *  - a listing serves only its burst: Reads arriving while it is fetched, then Reads that follow each
 *    other at most IDLE_MS apart, and never more than MAX_AGE_MS after it was fetched; a Read after a
 *    pause starts a new burst, so it sees what changed outside Pulumi in between;
 *  - a lone Read (fewer than MIN_BURST waiting after GATHER_MS) uses its own GET: one request either way;
 *  - an id missing from the listing is confirmed with its own GET (404 there, and only there, is "gone");
 *  - a listing that fails (any error after the client's retries) or would exceed MAX_ITEMS is not used:
 *    every Read of that burst falls back to its own GET;
 *  - a create, update or delete through this process ends the burst of its kind.
 */

/** How long the first Read of a burst waits for others before deciding between a listing and its GET. */
const GATHER_MS = 5;
/** Reads waiting after GATHER_MS needed for a listing (one Read alone is cheaper with its GET). */
const MIN_BURST = 2;
/** A Read more than this after the previous one of its kind starts a new burst. */
export const IDLE_MS = 500;
/** A listing older than this serves no more Reads, however steady the stream. */
export const MAX_AGE_MS = 3_000;
/** Page size: the contract's maximum `limit` (api contract/common.ts). */
const PAGE_SIZE = 200;
/** Largest listing taken for a burst (50 pages); a bigger organization is read with GETs. */
const MAX_ITEMS = 10_000;

interface Burst {
  /** Reads that joined while the decision was pending. */
  waiting: number;
  lastReadAt: number;
  /** undefined when this burst reads with GETs (too few Reads, the listing failed or was too large). */
  listing: Promise<Map<string, unknown> | undefined>;
  /** When the listing was complete. */
  fetchedAt?: number;
}

const bursts = new WeakMap<CloudCostClient, Map<string, Burst>>();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function burstsOf(client: CloudCostClient): Map<string, Burst> {
  let byKind = bursts.get(client);
  if (!byKind) {
    byKind = new Map();
    bursts.set(client, byKind);
  }
  return byKind;
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

function currentBurst(byKind: Map<string, Burst>, typeName: string, now: number): Burst | undefined {
  const b = byKind.get(typeName);
  if (!b) return undefined;
  if (now - b.lastReadAt > IDLE_MS || (b.fetchedAt !== undefined && now - b.fetchedAt > MAX_AGE_MS)) {
    byKind.delete(typeName);
    return undefined;
  }
  return b;
}

/**
 * The live object `id` for a Read, exactly as `spec.get` returns it: from the burst's listing when the
 * listing has it, else from its own GET (which rejects with the API's 404 when it is gone).
 */
export async function liveForRead<C extends Props, L extends { id: string }>(
  spec: ResourceSpec<C, L>,
  client: CloudCostClient,
  id: string,
): Promise<L> {
  const byKind = burstsOf(client);
  const now = Date.now();
  let burst = currentBurst(byKind, spec.typeName, now);
  if (burst) {
    burst.waiting++;
    burst.lastReadAt = now;
  } else {
    const b: Burst = { waiting: 1, lastReadAt: now, listing: Promise.resolve(undefined) };
    b.listing = (async () => {
      await sleep(GATHER_MS);
      if (b.waiting < MIN_BURST) return undefined;
      const items = await listAll(spec, client);
      b.fetchedAt = Date.now();
      return items;
    })();
    byKind.set(spec.typeName, b);
    burst = b;
  }
  const items = await burst.listing;
  const found = items?.get(id) as L | undefined;
  return found ?? spec.get(client, id);
}

/** Ends the burst of a kind: a write through this process makes its listing stale. */
export function endBurst(client: CloudCostClient, typeName: string): void {
  bursts.get(client)?.delete(typeName);
}
