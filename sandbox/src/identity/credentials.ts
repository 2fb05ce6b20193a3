import type { Scope } from "@cloudcost/api";
import type { Db } from "../database";
import { newId, newSecret } from "../ids";
import { digest, matchesDigest } from "./hashing";

export const CREDENTIAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('confidential', 'public')),
  secret_hash TEXT,
  scopes TEXT NOT NULL,
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('api', 'access', 'refresh')),
  org_id TEXT NOT NULL REFERENCES orgs(id),
  client_id TEXT,
  user_id TEXT,
  family TEXT,
  scopes TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS tokens_client ON tokens (client_id);
CREATE INDEX IF NOT EXISTS tokens_family ON tokens (family);
CREATE INDEX IF NOT EXISTS tokens_org ON tokens (org_id, kind);`;

export interface NewClient {
  client_id: string;
  client_secret: string;
  scopes: Scope[];
}

export interface ClientRecord {
  id: string;
  orgId: string;
  name: string;
  kind: "confidential" | "public";
  scopes: Scope[];
  redirectUris: string[];
  createdAt: string;
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

interface ClientRow {
  id: string;
  org_id: string;
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
  expires_at: number | null;
  revoked_at: number | null;
}

export const splitScopes = (s: string): Scope[] => s.split(" ").filter(Boolean) as Scope[];

/** Keeps only what `allowed` also has, in canonical order (read, write, run). */
export function intersectScopes(wanted: readonly Scope[], allowed: readonly Scope[]): Scope[] {
  const order: Scope[] = ["read", "write", "run"];
  return order.filter((s) => wanted.includes(s) && allowed.includes(s));
}

function clientFromRow(r: ClientRow): ClientRecord {
  return { id: r.id, orgId: r.org_id, name: r.name, kind: r.kind, scopes: splitScopes(r.scopes), redirectUris: JSON.parse(r.redirect_uris) as string[], createdAt: r.created_at };
}

/** OAuth clients, API tokens and access tokens; every secret is stored as a digest only. */
export class Credentials {
  constructor(private readonly db: Db) {}

  createConfidentialClient(orgId: string, name: string, scopes: readonly Scope[]): NewClient {
    const client_id = newId("ccc");
    const client_secret = newSecret("ccs");
    this.db
      .prepare("INSERT INTO oauth_clients (id, org_id, name, kind, secret_hash, scopes, created_at) VALUES (?, ?, ?, 'confidential', ?, ?, ?)")
      .run(client_id, orgId, name, digest(client_secret), scopes.join(" "), new Date().toISOString());
    return { client_id, client_secret, scopes: [...scopes] };
  }

  client(clientId: string): ClientRecord | undefined {
    const r = this.db.prepare("SELECT * FROM oauth_clients WHERE id = ?").get(clientId) as ClientRow | undefined;
    return r && clientFromRow(r);
  }

  listClients(orgId: string): ClientRecord[] {
    return (this.db.prepare("SELECT * FROM oauth_clients WHERE org_id = ? ORDER BY created_at").all(orgId) as ClientRow[]).map(clientFromRow);
  }

  /** Verifies a confidential client's secret in constant time; undefined for any mismatch. */
  authenticateClient(clientId: string, secret: string): ClientRecord | undefined {
    const r = this.db.prepare("SELECT * FROM oauth_clients WHERE id = ?").get(clientId) as ClientRow | undefined;
    if (!r || r.kind !== "confidential" || !r.secret_hash) return undefined;
    return matchesDigest(secret, r.secret_hash) ? clientFromRow(r) : undefined;
  }

  /** Deleting a client invalidates every token it issued (spec: Revocation). */
  deleteClient(orgId: string, clientId: string): boolean {
    return this.db.transaction(() => {
      const gone = this.db.prepare("DELETE FROM oauth_clients WHERE id = ? AND org_id = ?").run(clientId, orgId).changes > 0;
      if (gone) this.db.prepare("DELETE FROM tokens WHERE client_id = ?").run(clientId);
      return gone;
    })();
  }

  /** Issues a token of `kind`; its scopes are `scopes` intersected with the organization's permissions. */
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
    this.db
      .prepare("INSERT INTO tokens (hash, kind, org_id, client_id, user_id, family, scopes, label, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .run(digest(token), opts.kind, opts.orgId, opts.clientId ?? null, opts.userId ?? null, opts.family ?? null, opts.scopes.join(" "), opts.label ?? "", now, expiresAt);
    return { token, expiresAt };
  }

  /** Revokes a token of the organization (or of any organization when `orgId` is undefined). */
  revokeToken(token: string, orgId?: string): boolean {
    const sql = orgId === undefined ? "UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL" : "UPDATE tokens SET revoked_at = ? WHERE hash = ? AND org_id = ? AND revoked_at IS NULL";
    const args = orgId === undefined ? [Date.now(), digest(token)] : [Date.now(), digest(token), orgId];
    return this.db.prepare(sql).run(...args).changes > 0;
  }

  /** Resolves `Authorization: Bearer` to a principal. Refresh tokens are never accepted as bearer tokens. */
  authenticateBearer(token: string, permissionsOf: (orgId: string) => readonly Scope[] | undefined): Authentication {
    const r = this.db.prepare("SELECT * FROM tokens WHERE hash = ?").get(digest(token)) as TokenRow | undefined;
    if (!r || r.kind === "refresh") return { ok: false, reason: "invalid" };
    if (r.revoked_at !== null) return { ok: false, reason: "revoked" };
    if (r.expires_at !== null && r.expires_at <= Date.now()) return { ok: false, reason: "expired" };
    const permissions = permissionsOf(r.org_id);
    if (!permissions) return { ok: false, reason: "invalid" };
    return {
      ok: true,
      principal: {
        orgId: r.org_id,
        scopes: intersectScopes(splitScopes(r.scopes), permissions),
        tokenKind: r.kind,
        clientId: r.client_id,
        userId: r.user_id,
        tokenRef: r.hash.slice(0, 16),
      },
    };
  }
}
