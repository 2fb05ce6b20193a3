import type { Scope, TokenResponse } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";

/** Refresh tokens live 30 days each (decision); every use rotates them (RFC 9700 §4.14.2). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export interface Grant {
  orgId: string;
  clientId: string;
  userId: string | null;
  scopes: readonly Scope[];
  /** Set for user grants (code flow): a refresh token is issued and every token of the grant shares the family. */
  family: string | null;
  /** Scopes of the new refresh token when they differ from the access token's: a narrowed refresh keeps the original grant (RFC 6749 §6). */
  refreshScopes?: readonly Scope[];
}

/** Issues the access token (and, for user grants, a rotating refresh token) and builds the RFC 6749 §5.1 body. */
export function issueTokens(ctx: SandboxContext, grant: Grant): TokenResponse {
  const ttl = ctx.config.accessTokenTtlSeconds;
  const common = { orgId: grant.orgId, scopes: grant.scopes, clientId: grant.clientId, userId: grant.userId, family: grant.family };
  const access = ctx.credentials.issueToken({ kind: "access", ttlSeconds: ttl, ...common });
  const response: TokenResponse = { access_token: access.token, token_type: "Bearer", expires_in: ttl, scope: grant.scopes.join(" ") };
  if (grant.family !== null) {
    const refresh = {
      kind: "refresh" as const,
      ttlSeconds: REFRESH_TOKEN_TTL_SECONDS,
      ...common,
      scopes: grant.refreshScopes ?? grant.scopes,
    };
    response.refresh_token = ctx.credentials.issueToken(refresh).token;
  }
  return response;
}
