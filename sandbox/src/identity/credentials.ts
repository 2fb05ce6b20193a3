import { ALL_SCOPES, type Scope } from "@cloudcost/api/contract";
import { isBusy, writeTransaction, type Db } from "../store/connection";
import { newId, newSecret } from "../store/ids";
import { digest, matchesDigest } from "./hashing";
import { conflict } from "../errors";
import { sql } from "../store/statements";

export interface NewClient {
  client_id: string;
  client_secret: string;
  scopes: Scope[];
}

export interface ClientRecord {
  id: string;
  /** Owning organization; null for a dynamically registered public client (its tokens take the signing-in user's). */
  orgId: string | null;
  name: string;
  kind: "confidential" | "public";
  scopes: Scope[];
  redirectUris: string[];
  createdAt: string;
}

/** Metadata of a public (PKCE) client registered through RFC 7591 dynamic registration. */
export interface PublicClientMetadata {
  name: string;
  scopes: readonly Scope[];
  redirectUris: readonly string[];
}

/** Who a valid bearer token speaks for. */
export interface Principal {
  orgId: string;
  scopes: Scope[];
  tokenKind: "api" | "access";
  clientId: string | null;
  userId: string | null;
  /** Stable, non-secret key for per-token rate limiting and logs (a prefix of the digest). */
  tokenRef: string;
}

export type Authentication = { ok: true; principal: Principal } | { ok: false; reason: "invalid" | "expired" | "revoked" };

/** A stored token as the authorization server sees it (never the token itself). */
export interface TokenRecord {
  /** Non-secret reference: a prefix of the digest. */
  ref: string;
  kind: "api" | "access" | "refresh";
  orgId: string;
  clientId: string | null;
  userId: string | null;
  /** Grant the token belongs to: every token issued from one authorization code shares it. */
  family: string | null;
  scopes: Scope[];
  label: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  /** When the token last authenticated a request (to the minute: see {@link LAST_USE_RESOLUTION_MS}); null if never. */
  lastUsedAt: number | null;
}

interface ClientRow {
  id: string;
  org_id: string | null;
  name: string;
  kind: "confidential" | "public";
  secret_hash: string | null;
  scopes: string;
  redirect_uris: string;
  created_at: string;
}
interface TokenRow {
  hash: string;
  kind: "api" | "access" | "refresh";
  org_id: string;
  client_id: string | null;
  user_id: string | null;
  family: string | null;
  scopes: string;
  label: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

const REF_LENGTH = 16;

/**
 * A token's last use is written only when the stored time is older than this: a busy token costs one
 * small write a minute instead of one per request, and the portal shows the time to the minute anyway.
 */
export const LAST_USE_RESOLUTION_MS = 60_000;

/** Every token read carries its last use (a primary-key join). */
const TOKEN_SELECT = "SELECT t.*, u.last_used_at FROM tokens t LEFT JOIN token_use u ON u.hash = t.hash";

/** Confidential OAuth clients per organization (decision): enough for any team, and a bound on the table. */
export const MAX_CLIENTS_PER_ORG = 100;

export const splitScopes = (s: string): Scope[] => s.split(" ").filter(Boolean) as Scope[];

/** Keeps only what `allowed` also has, in canonical order (read, write, run). */
export function intersectScopes(wanted: readonly Scope[], allowed: readonly Scope[]): Scope[] {
  return ALL_SCOPES.filter((s) => wanted.includes(s) && allowed.includes(s));
}

function clientFromRow(r: ClientRow): ClientRecord {
  return {
    id: r.id,
    orgId: r.org_id,
    name: r.name,
    kind: r.kind,
    scopes: splitScopes(r.scopes),
    redirectUris: JSON.parse(r.redirect_uris) as string[],
    createdAt: r.created_at,
  };
}

function tokenFromRow(r: TokenRow): TokenRecord {
  return {
    ref: r.hash.slice(0, REF_LENGTH),
    kind: r.kind,
    orgId: r.org_id,
    clientId: r.client_id,
    userId: r.user_id,
    family: r.family,
    scopes: splitScopes(r.scopes),
    label: r.label,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at ?? null,
  };
}

/** OAuth clients, API tokens, access and refresh tokens; every secret is stored as a digest only. */
export class Credentials {
  constructor(private readonly db: Db) {}

  /** A new confidential client of the organization; a 409 once it has `MAX_CLIENTS_PER_ORG` (counted and added in one transaction). */
  createConfidentialClient(orgId: string, name: string, scopes: readonly Scope[]): NewClient {
    return writeTransaction(this.db, () => {
      const { n } = sql(this.db, "SELECT count(*) AS n FROM oauth_clients WHERE org_id = ?").get(orgId) as { n: number };
      if (n >= MAX_CLIENTS_PER_ORG) throw conflict(`The organization already has ${MAX_CLIENTS_PER_ORG} OAuth clients; delete one first.`);
      const client_id = newId("ccc");
      const client_secret = newSecret("ccs");
      sql(
        this.db,
        "INSERT INTO oauth_clients (id, org_id, name, kind, secret_hash, scopes, created_at) VALUES (?, ?, ?, 'confidential', ?, ?, ?)",
      ).run(client_id, orgId, name, digest(client_secret), scopes.join(" "), new Date().toISOString());
      return { client_id, client_secret, scopes: [...scopes] };
    });
  }

  /** RFC 7591: a public client has no secret and no organization; PKCE protects its codes. Undefined once `max` public clients exist. */
  registerPublicClient(meta: PublicClientMetadata, max: number): ClientRecord | undefined {
    return writeTransaction(this.db, () => {
      const { n } = sql(this.db, "SELECT count(*) AS n FROM oauth_clients WHERE kind = 'public'").get() as { n: number };
      if (n >= max) return undefined;
      const id = newId("ccp");
      const createdAt = new Date().toISOString();
      sql(
        this.db,
        "INSERT INTO oauth_clients (id, org_id, name, kind, secret_hash, scopes, redirect_uris, created_at) VALUES (?, NULL, ?, 'public', NULL, ?, ?, ?)",
      ).run(id, meta.name, meta.scopes.join(" "), JSON.stringify(meta.redirectUris), createdAt);
      return {
        id,
        orgId: null,
        name: meta.name,
        kind: "public" as const,
        scopes: [...meta.scopes],
        redirectUris: [...meta.redirectUris],
        createdAt,
      };
    });
  }

  client(clientId: string): ClientRecord | undefined {
    const r = sql(this.db, "SELECT * FROM oauth_clients WHERE id = ?").get(clientId) as ClientRow | undefined;
    return r && clientFromRow(r);
  }

  /** The organization's confidential clients. */
  listClients(orgId: string): ClientRecord[] {
    return (sql(this.db, "SELECT * FROM oauth_clients WHERE org_id = ? ORDER BY created_at").all(orgId) as ClientRow[]).map(clientFromRow);
  }

  /** Verifies a confidential client's secret in constant time; undefined for any mismatch. */
  authenticateClient(clientId: string, secret: string): ClientRecord | undefined {
    const r = sql(this.db, "SELECT * FROM oauth_clients WHERE id = ?").get(clientId) as ClientRow | undefined;
    if (!r || r.kind !== "confidential" || !r.secret_hash) return undefined;
    return matchesDigest(secret, r.secret_hash) ? clientFromRow(r) : undefined;
  }

  /** Deleting a client invalidates every token it issued (spec: Revocation); its codes go with it (FK cascade). */
  deleteClient(orgId: string, clientId: string): boolean {
    return writeTransaction(this.db, () => {
      const gone = sql(this.db, "DELETE FROM oauth_clients WHERE id = ? AND org_id = ?").run(clientId, orgId).changes > 0;
      if (gone) sql(this.db, "DELETE FROM tokens WHERE client_id = ?").run(clientId);
      return gone;
    });
  }

  /**
   * Issues a token of `kind` carrying `scopes` as asked. The organization's permissions are applied when
   * the token is used (`authenticateBearer`), so narrowing them later narrows every live token too.
   */
  issueToken(opts: {
    kind: "api" | "access" | "refresh";
    orgId: string;
    scopes: readonly Scope[];
    ttlSeconds: number | null;
    clientId?: string | null;
    userId?: string | null;
    family?: string | null;
    label?: string;
  }): { token: string; expiresAt: number | null } {
    const prefix = { api: "ccpat", access: "ccat", refresh: "ccrt" }[opts.kind];
    const token = newSecret(prefix);
    const now = Date.now();
    const expiresAt = opts.ttlSeconds === null ? null : now + opts.ttlSeconds * 1000;
    sql(
      this.db,
      "INSERT INTO tokens (hash, kind, org_id, client_id, user_id, family, scopes, label, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      digest(token),
      opts.kind,
      opts.orgId,
      opts.clientId ?? null,
      opts.userId ?? null,
      opts.family ?? null,
      opts.scopes.join(" "),
      opts.label ?? "",
      now,
      expiresAt,
    );
    return { token, expiresAt };
  }

  /** Revokes a token of the organization (or of any organization when `orgId` is undefined). */
  revokeToken(token: string, orgId?: string): boolean {
    const text =
      orgId === undefined
        ? "UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL"
        : "UPDATE tokens SET revoked_at = ? WHERE hash = ? AND org_id = ? AND revoked_at IS NULL";
    const args = orgId === undefined ? [Date.now(), digest(token)] : [Date.now(), digest(token), orgId];
    return sql(this.db, text).run(...args).changes > 0;
  }

  /** The stored record of a presented token, whatever its state. */
  lookupToken(token: string): TokenRecord | undefined {
    return this.tokenByHash(digest(token));
  }

  private tokenByHash(hash: string): TokenRecord | undefined {
    const r = sql(this.db, `${TOKEN_SELECT} WHERE t.hash = ?`).get(hash) as TokenRow | undefined;
    return r && tokenFromRow(r);
  }

  /** Revokes every token of a grant (refresh-token reuse, code reuse, RFC 7009 revocation of a refresh token). */
  revokeFamily(family: string): number {
    return sql(this.db, "UPDATE tokens SET revoked_at = ? WHERE family = ? AND revoked_at IS NULL").run(Date.now(), family).changes;
  }

  /** The organization's API tokens (portal: API Access), newest first. */
  listApiTokens(orgId: string): TokenRecord[] {
    return (sql(this.db, `${TOKEN_SELECT} WHERE t.org_id = ? AND t.kind = 'api' ORDER BY t.created_at DESC`).all(orgId) as TokenRow[]).map(
      tokenFromRow,
    );
  }

  /** Revokes one of the organization's API tokens by its reference (the portal never holds the token itself). */
  revokeApiToken(orgId: string, ref: string): boolean {
    if (ref.length !== REF_LENGTH || !/^[0-9a-f]+$/.test(ref)) return false;
    // Every digest starting with `ref` sorts between `ref` and `ref` + "g" (hex digits sort below "g"): uses the primary key.
    return (
      sql(
        this.db,
        "UPDATE tokens SET revoked_at = ? WHERE hash > ? AND hash < ? AND org_id = ? AND kind = 'api' AND revoked_at IS NULL",
      ).run(Date.now(), ref, `${ref}g`, orgId).changes > 0
    );
  }

  /** Resolves `Authorization: Bearer` to a principal. Refresh tokens are never accepted as bearer tokens. */
  authenticateBearer(token: string, permissionsOf: (orgId: string) => readonly Scope[] | undefined): Authentication {
    const hash = digest(token);
    const r = this.tokenByHash(hash);
    if (!r || r.kind === "refresh") return { ok: false, reason: "invalid" };
    if (r.revokedAt !== null) return { ok: false, reason: "revoked" };
    if (r.expiresAt !== null && r.expiresAt <= Date.now()) return { ok: false, reason: "expired" };
    const permissions = permissionsOf(r.orgId);
    if (!permissions) return { ok: false, reason: "invalid" };
    this.recordUse(hash, r.lastUsedAt);
    return {
      ok: true,
      principal: {
        orgId: r.orgId,
        scopes: intersectScopes(r.scopes, permissions),
        tokenKind: r.kind,
        clientId: r.clientId,
        userId: r.userId,
        tokenRef: r.ref,
      },
    };
  }

  /**
   * Records that the token with digest `hash` authenticated a request now, unless the stored time is recent enough. Best effort:
   * the request it authenticates must neither fail nor wait because the write lock is taken.
   */
  private recordUse(hash: string, lastUsedAt: number | null): void {
    const now = Date.now();
    if (lastUsedAt !== null && now - lastUsedAt < LAST_USE_RESOLUTION_MS) return;
    // Never wait for the write lock here (another process, say the CLI, may hold it): the request goes on
    // at once and a later one records the use.
    const busyTimeout = this.db.pragma("busy_timeout", { simple: true });
    this.db.pragma("busy_timeout = 0");
    try {
      sql(
        this.db,
        "INSERT INTO token_use (hash, last_used_at) VALUES (?, ?) ON CONFLICT (hash) DO UPDATE SET last_used_at = excluded.last_used_at",
      ).run(hash, now);
    } catch (error) {
      // The lock was taken: not recorded this time. Anything else is a real failure and is not hidden.
      if (!isBusy(error)) throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${Number(busyTimeout)}`);
    }
  }
}
