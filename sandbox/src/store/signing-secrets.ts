import { randomBytes } from "node:crypto";
import type { Db } from "./connection";
import { sql } from "./statements";

/** After a rotation, webhooks carry the previous secret's signature too for this long (issue 15). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

interface Row {
  secret: string;
  previous: string | null;
  previous_until: number | null;
}

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (the `standardwebhooks` package's format). */
const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * Each organization's webhook signing secret. Unlike every other secret of the sandbox it is kept as it
 * is, not as a digest: the service must sign with it and `GET /webhooks/signing-secret` must return it
 * (the data folder is as sensitive as the secret; see the README's threat model).
 */
export class SigningSecrets {
  constructor(private readonly db: Db) {}

  /** The current secret, made on first use (INSERT OR IGNORE: two processes agree on one). */
  current(orgId: string): string {
    return this.row(orgId).secret;
  }

  /** The secrets a webhook sent at `nowMs` is signed with: the current one, and the previous one within 24 h of a rotation. */
  signingKeys(orgId: string, nowMs: number): string[] {
    const row = this.row(orgId);
    return row.previous !== null && row.previous_until !== null && nowMs < row.previous_until ? [row.secret, row.previous] : [row.secret];
  }

  /** A new secret; the one it replaces stays valid for signatures for 24 h. Run inside a write transaction. */
  rotate(orgId: string, nowMs: number): string {
    const old = this.row(orgId);
    const secret = newSigningSecret();
    sql(this.db, "UPDATE signing_secrets SET secret = ?, previous = ?, previous_until = ? WHERE org_id = ?").run(
      secret,
      old.secret,
      nowMs + ROTATION_OVERLAP_MS,
      orgId,
    );
    return secret;
  }

  private row(orgId: string): Row {
    const read = () =>
      sql(this.db, "SELECT secret, previous, previous_until FROM signing_secrets WHERE org_id = ?").get(orgId) as Row | undefined;
    const known = read();
    if (known) return known;
    sql(this.db, "INSERT OR IGNORE INTO signing_secrets (org_id, secret) VALUES (?, ?)").run(orgId, newSigningSecret());
    return read() as Row;
  }
}
