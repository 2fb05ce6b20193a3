import { AuthorizationCodeRequest, type TokenResponse } from "@cloudcost/api/contract";
import type { SandboxContext } from "../../service/context";
import type { AuthorizationCodes, StoredCode } from "../../identity/authorization-codes";
import { intersectScopes, type ClientRecord } from "../../identity/credentials";
import { OAuthFailure } from "../../errors";
import { parseParams, type Form } from "../form";
import { verifierMatches } from "../pkce";
import { issueTokens } from "../token-response";

/** RFC 6749 §4.1.3 and RFC 7636 §4.6: the code is bound to its client, redirect URI and PKCE challenge. */
function checkBinding(code: StoredCode, client: ClientRecord, redirectUri: string, verifier: string): void {
  if (code.clientId !== client.id) throw new OAuthFailure("invalid_grant", "the authorization code was issued to another client");
  if (code.expiresAt <= Date.now()) throw new OAuthFailure("invalid_grant", "the authorization code has expired");
  if (code.redirectUri !== redirectUri)
    throw new OAuthFailure("invalid_grant", "redirect_uri does not match the one in the authorization request");
  if (!verifierMatches(verifier, code.codeChallenge))
    throw new OAuthFailure("invalid_grant", "code_verifier does not match the code_challenge");
}

/** Redeems a single-use code. A replayed code is refused and every token issued from it is revoked (RFC 6749 §4.1.2). */
export function authorizationCodeGrant(ctx: SandboxContext, codes: AuthorizationCodes, client: ClientRecord, form: Form): TokenResponse {
  const request = parseParams(AuthorizationCodeRequest, form);
  if (client.kind !== "public")
    throw new OAuthFailure("unauthorized_client", "only registered public clients use the authorization-code flow");
  const redemption = codes.redeem(request.code);
  if (redemption.status === "unknown") throw new OAuthFailure("invalid_grant", "the authorization code is invalid");
  if (redemption.status === "reused") {
    ctx.credentials.revokeFamily(redemption.family);
    throw new OAuthFailure("invalid_grant", "the authorization code was already used; the tokens issued for it are revoked");
  }
  const code = redemption.code;
  checkBinding(code, client, request.redirect_uri, request.code_verifier);
  const scopes = intersectScopes(code.scopes, ctx.orgs.permissions(code.orgId));
  return issueTokens(ctx, { orgId: code.orgId, clientId: client.id, userId: code.userId, scopes, family: code.family });
}
