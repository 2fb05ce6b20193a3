import { ClientCredentialsRequest, type TokenResponse } from "@cloudcost/api/contract";
import type { SandboxContext } from "../../service/context";
import { intersectScopes, type ClientRecord } from "../../identity/credentials";
import { OAuthFailure } from "../../errors";
import { parseParams, type Form } from "../form";
import { grantScopes } from "../scope";
import { issueTokens } from "../token-response";

/** RFC 6749 §4.4: a confidential client gets a token for its organization; scopes = its allowed ∩ the organization's. */
export function clientCredentialsGrant(ctx: SandboxContext, client: ClientRecord, form: Form): TokenResponse {
  const request = parseParams(ClientCredentialsRequest, form);
  if (client.kind !== "confidential" || client.orgId === null)
    throw new OAuthFailure("unauthorized_client", "only confidential clients may use client_credentials (RFC 6749 §4.4)");
  const permissions = ctx.orgs.permissions(client.orgId);
  const scopes = grantScopes(request.scope, intersectScopes(client.scopes, permissions));
  return issueTokens(ctx, { orgId: client.orgId, clientId: client.id, userId: null, scopes, family: null });
}
