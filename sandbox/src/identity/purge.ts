import { writeTransaction, type Db } from "../store/connection";
import { sql } from "../store/statements";

/** Rows deleted by one purge, per table. */
export interface Purged {
  tokens: number;
  codes: number;
  sessions: number;
}

/**
 * Deletes credentials that can never work again, so the identity tables stay bounded however many
 * tokens, codes and sign-ins a long-running sandbox sees. Expired or revoked tokens and expired codes
 * are kept for `retentionMs` first: until then a client presenting one is told "expired" or "revoked"
 * (RFC 6750 error_description) instead of "unknown". Revoked refresh tokens stay until they expire, so
 * replaying a rotated one keeps revoking its grant (RFC 9700 §4.14.2) for its whole lifetime.
 */
export function purgeExpired(db: Db, now: number, retentionMs: number): Purged {
  const before = now - retentionMs;
  return writeTransaction(db, () => ({
    tokens:
      sql(db, "DELETE FROM tokens WHERE expires_at <= ?").run(before).changes +
      sql(db, "DELETE FROM tokens WHERE revoked_at <= ? AND kind <> 'refresh'").run(before).changes,
    codes: sql(db, "DELETE FROM authorization_codes WHERE expires_at <= ?").run(before).changes,
    sessions: sql(db, "DELETE FROM sessions WHERE expires_at <= ?").run(now).changes,
  }));
}
