import type { IdempotencyRecord, IdempotencyRecordQuery, Page } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { toPage, cursorPosition } from "./paging";
import { sql } from "./statements";
import { GROUP_REFERENCING_TABLES } from "./tables";

/** Keys are kept 24 hours (contract decision), per organization. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** The first response to a request with an `Idempotency-Key`, replayed for retries. */
export interface SavedResponse {
  /** Digest of method, path and body: a retry must match it. */
  fingerprint: string;
  status: number;
  /** The JSON text first sent, replayed byte for byte. */
  body: string | undefined;
  headers: Record<string, string>;
}

interface KeyRow {
  seq: number;
  key: string;
  fingerprint: string;
  status: number;
  body: string | null;
  headers: string;
  created_at: number;
  /** From idempotency_replays (a table of its own, so data folders made before it need no ALTER). */
  replayed_at: number | null;
}

/**
 * The tables of the objects a create can make, by the prefix of their IDs: a key whose object is no longer
 * in its table is forgotten (contract: `IdempotencyRecord`). IDs of other prefixes (scan runs) never go away.
 */
const DELETABLE_OBJECTS: Readonly<Record<string, string>> = {
  grp: "cloud_groups",
  alr: GROUP_REFERENCING_TABLES.alert,
  rpt: GROUP_REFERENCING_TABLES.report,
};

/** The `id` of the object a saved response describes, if it is one. */
function createdId(body: string | null): string | null {
  if (body === null) return null;
  try {
    const parsed: unknown = JSON.parse(body);
    const id = parsed !== null && typeof parsed === "object" ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === "string" ? id : null;
  } catch {
    return null;
  }
}

export class IdempotencyKeys {
  constructor(private readonly db: Db) {}

  /**
   * The saved first response for `key`, unless it is older than 24 hours or the object it created has been
   * deleted since: then the key is forgotten (deleted here, in the caller's transaction) and undefined says
   * "run the request as new".
   */
  find(orgId: string, key: string, now: number = Date.now()): SavedResponse | undefined {
    const r = sql(this.db, "SELECT * FROM idempotency_keys WHERE org_id = ? AND key = ? AND created_at > ?").get(
      orgId,
      key,
      now - IDEMPOTENCY_KEY_TTL_MS,
    ) as KeyRow | undefined;
    if (!r) return undefined;
    if (this.createdObjectGone(orgId, r)) {
      this.forget(orgId, key);
      return undefined;
    }
    return {
      fingerprint: r.fingerprint,
      status: r.status,
      body: r.body ?? undefined,
      headers: JSON.parse(r.headers) as Record<string, string>,
    };
  }

  /** Records that the first response for `key` was given again now (in the caller's transaction). */
  markReplayed(orgId: string, key: string, now: number = Date.now()): void {
    sql(this.db, "INSERT OR REPLACE INTO idempotency_replays (org_id, key, replayed_at) VALUES (?, ?, ?)").run(orgId, key, now);
  }

  /** Saves the response in the caller's transaction, so the created object and its key commit together. */
  save(orgId: string, key: string, saved: SavedResponse, now: number = Date.now()): void {
    sql(this.db, "DELETE FROM idempotency_keys WHERE created_at <= ?").run(now - IDEMPOTENCY_KEY_TTL_MS);
    sql(
      this.db,
      "DELETE FROM idempotency_replays WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys k WHERE k.org_id = idempotency_replays.org_id AND k.key = idempotency_replays.key)",
    ).run();
    sql(this.db, "DELETE FROM idempotency_replays WHERE org_id = ? AND key = ?").run(orgId, key);
    sql(
      this.db,
      "INSERT OR REPLACE INTO idempotency_keys (org_id, key, fingerprint, status, body, headers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(orgId, key, saved.fingerprint, saved.status, saved.body ?? null, JSON.stringify(saved.headers), now);
  }

  /**
   * One page of the organization's live keys beginning with `q.prefix`, in the order first used. Keys whose
   * object is gone are left out (and forgotten at their next use), so every `resourceId` listed exists.
   */
  page(orgId: string, q: IdempotencyRecordQuery, now: number = Date.now()): Page<IdempotencyRecord> {
    const scope = { db: this.db, list: "idempotency-keys", orgId };
    const prefix = q.prefix ?? "";
    // rowid is the insertion order; `substr` compares the prefix literally (LIKE would treat % and _ as patterns).
    const rows = sql(
      this.db,
      "SELECT k.rowid AS seq, k.*, r.replayed_at FROM idempotency_keys k LEFT JOIN idempotency_replays r ON r.org_id = k.org_id AND r.key = k.key " +
        "WHERE k.org_id = ? AND k.rowid > ? AND k.created_at > ? AND substr(k.key, 1, ?) = ? ORDER BY k.rowid LIMIT ?",
    ).all(orgId, cursorPosition(scope, q), now - IDEMPOTENCY_KEY_TTL_MS, prefix.length, prefix, q.limit + 1) as KeyRow[];
    const live = (r: KeyRow) => !this.createdObjectGone(orgId, r);
    const page = toPage(scope, rows, q.limit, (r) => r);
    return { items: page.items.filter(live).map(recordOf), nextCursor: page.nextCursor };
  }

  private forget(orgId: string, key: string): void {
    sql(this.db, "DELETE FROM idempotency_keys WHERE org_id = ? AND key = ?").run(orgId, key);
    sql(this.db, "DELETE FROM idempotency_replays WHERE org_id = ? AND key = ?").run(orgId, key);
  }

  private createdObjectGone(orgId: string, r: Pick<KeyRow, "body">): boolean {
    const id = createdId(r.body);
    const table = id === null ? undefined : DELETABLE_OBJECTS[id.split("_")[0]!];
    if (table === undefined) return false;
    return sql(this.db, `SELECT 1 FROM ${table} WHERE org_id = ? AND id = ?`).get(orgId, id) === undefined;
  }
}

function recordOf(r: KeyRow): IdempotencyRecord {
  return {
    key: r.key,
    status: r.status,
    resourceId: createdId(r.body),
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.created_at + IDEMPOTENCY_KEY_TTL_MS).toISOString(),
    replayedAt: r.replayed_at === null ? null : new Date(r.replayed_at).toISOString(),
  };
}
