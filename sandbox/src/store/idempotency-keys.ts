import type { Db } from "./connection";
import { sql } from "./statements";

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
  fingerprint: string;
  status: number;
  body: string | null;
  headers: string;
}

export class IdempotencyKeys {
  constructor(private readonly db: Db) {}

  find(orgId: string, key: string, now: number = Date.now()): SavedResponse | undefined {
    const r = sql(this.db, "SELECT * FROM idempotency_keys WHERE org_id = ? AND key = ? AND created_at > ?").get(
      orgId,
      key,
      now - IDEMPOTENCY_KEY_TTL_MS,
    ) as KeyRow | undefined;
    return (
      r && {
        fingerprint: r.fingerprint,
        status: r.status,
        body: r.body ?? undefined,
        headers: JSON.parse(r.headers) as Record<string, string>,
      }
    );
  }

  /** Saves the response in the caller's transaction, so the created object and its key commit together. */
  save(orgId: string, key: string, saved: SavedResponse, now: number = Date.now()): void {
    sql(this.db, "DELETE FROM idempotency_keys WHERE created_at <= ?").run(now - IDEMPOTENCY_KEY_TTL_MS);
    sql(
      this.db,
      "INSERT OR REPLACE INTO idempotency_keys (org_id, key, fingerprint, status, body, headers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(orgId, key, saved.fingerprint, saved.status, saved.body ?? null, JSON.stringify(saved.headers), now);
  }
}
