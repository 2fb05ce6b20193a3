import { TokenHintRequest } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { ClientRecord, TokenRecord } from "../identity/credentials";
import { authenticateOptionalClient } from "./client-auth";
import { noStore } from "./error-response";
import { OAuthFailure } from "../errors";
import { parseParams, readForm } from "./form";

/**
 * Whether the caller may revoke `token` (RFC 7009 §2.1: "the token was issued to the client making the
 * revocation request"). API tokens belong to no client: presenting one without client credentials
 * revokes it (the API Access page's "revoke", for scripts).
 */
function mayRevoke(client: ClientRecord | undefined, token: TokenRecord): boolean {
  if (token.clientId === null) return client === undefined;
  if (client === undefined)
    throw new OAuthFailure("invalid_client", "this token was issued to a client: authenticate as that client to revoke it");
  return token.clientId === client.id;
}

/**
 * `POST /oauth/revoke` (RFC 7009): 200 for every well-formed request, whether or not the token exists or
 * was already revoked (§2.2). Revoking a refresh token revokes every token of its grant (§2.1).
 */
export function registerRevocationEndpoint(app: FastifyInstance, ctx: SandboxContext): void {
  app.post("/oauth/revoke", async (request, reply) => {
    const form = readForm(request);
    const { token } = parseParams(TokenHintRequest, form);
    const client = authenticateOptionalClient(ctx, request, form);
    const record = ctx.credentials.lookupToken(token);
    if (record && mayRevoke(client, record)) {
      if (record.kind === "refresh" && record.family !== null) ctx.credentials.revokeFamily(record.family);
      else ctx.credentials.revokeToken(token);
    }
    return noStore(reply).code(200).send();
  });
}
