import type { Scope } from "@cloudcost/api/contract";
import { writeTransaction, type Db } from "../store/connection";
import { newId, newSecret } from "../store/ids";
import { splitScopes } from "./credentials";
import { digest } from "./hashing";
import { sql } from "../store/statements";

/** What an authorization code was issued for (RFC 6749 §4.1.2, RFC 7636 §4.4). */
export interface CodeGrant {
  clientId: string;
  userId: string;
  orgId: string;
  redirectUri: string;
  /** S256 challenge: BASE64URL(SHA256(code_verifier)). */
  codeChallenge: string;
  scopes: readonly Scope[];
}

export interface StoredCode extends CodeGrant {
  /** Every token issued from this code carries this family, so a replay can revoke them all. */
  family: string;
  expiresAt: number;
}

/** `reused`: the code was redeemed before (RFC 6749 §4.1.2: deny, and revoke what it issued). */
export type Redemption = { status: "ok"; code: StoredCode } | { status: "unknown" } | { status: "reused"; family: string };

interface CodeRow {
  client_id: string;
  user_id: string;
  org_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  family: string;
  expires_at: number;
  used_at: number | null;
}

/** Single-use authorization codes, stored as digests. */
export class AuthorizationCodes {
  constructor(private readonly db: Db) {}

  issue(grant: CodeGrant, ttlSeconds: number): string {
    const code = newSecret("ccac");
    sql(
      this.db,
      "INSERT INTO authorization_codes (hash, client_id, user_id, org_id, redirect_uri, code_challenge, scopes, family, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      digest(code),
      grant.clientId,
      grant.userId,
      grant.orgId,
      grant.redirectUri,
      grant.codeChallenge,
      grant.scopes.join(" "),
      newId("grant"),
      Date.now() + ttlSeconds * 1000,
    );
    return code;
  }

  /** Marks the code used and returns what it was issued for; the check and the mark are one transaction. */
  redeem(code: string): Redemption {
    return writeTransaction(this.db, (): Redemption => {
      const hash = digest(code);
      const r = sql(this.db, "SELECT * FROM authorization_codes WHERE hash = ?").get(hash) as CodeRow | undefined;
      if (!r) return { status: "unknown" };
      if (r.used_at !== null) return { status: "reused", family: r.family };
      sql(this.db, "UPDATE authorization_codes SET used_at = ? WHERE hash = ?").run(Date.now(), hash);
      return {
        status: "ok",
        code: {
          clientId: r.client_id,
          userId: r.user_id,
          orgId: r.org_id,
          redirectUri: r.redirect_uri,
          codeChallenge: r.code_challenge,
          scopes: splitScopes(r.scopes),
          family: r.family,
          expiresAt: r.expires_at,
        },
      };
    });
  }
}
