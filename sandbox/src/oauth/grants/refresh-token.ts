import { RefreshTokenRequest, type TokenResponse } from "@cloudcost/api/contract";
import type { SandboxContext } from "../../service/context";
import { intersectScopes, type ClientRecord, type TokenRecord } from "../../identity/credentials";
import { OAuthFailure } from "../../errors";
import { parseParams, type Form } from "../form";
import { grantScopes } from "../scope";
import { issueTokens } from "../token-response";

/** A presented refresh token that is already used or revoked means it leaked: revoke its whole grant (RFC 9700 §4.14.2). */
function refuseReplay(ctx: SandboxContext, record: TokenRecord): never {
  if (record.family !== null) ctx.credentials.revokeFamily(record.family);
  throw new OAuthFailure("invalid_grant", "the refresh token was already used or revoked; every token of this grant is now revoked");
}

/** RFC 6749 §6 with rotation: each use returns a new refresh token and retires the old one. */
export function refreshTokenGrant(ctx: SandboxContext, client: ClientRecord, form: Form): TokenResponse {
  const request = parseParams(RefreshTokenRequest, form);
  const record = ctx.credentials.lookupToken(request.refresh_token);
  if (!record || record.kind !== "refresh") throw new OAuthFailure("invalid_grant", "the refresh token is invalid");
  if (record.clientId !== client.id) throw new OAuthFailure("invalid_grant", "the refresh token was issued to another client");
  if (record.revokedAt !== null) refuseReplay(ctx, record);
  if (record.expiresAt !== null && record.expiresAt <= Date.now()) throw new OAuthFailure("invalid_grant", "the refresh token has expired");
  // §6: the new scope may not exceed the original grant (nor what the organization still permits).
  const scopes = grantScopes(request.scope, intersectScopes(record.scopes, ctx.orgs.permissions(record.orgId)));
  if (!ctx.credentials.revokeToken(request.refresh_token)) refuseReplay(ctx, record);
  return issueTokens(ctx, {
    orgId: record.orgId,
    clientId: client.id,
    userId: record.userId,
    scopes,
    family: record.family,
    refreshScopes: record.scopes,
  });
}
