import { TokenHintRequest, type IntrospectionResponse } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { ClientRecord, TokenRecord } from "../identity/credentials";
import type { IdentityStores } from "../identity/identity-stores";
import { authenticateClient } from "./client-auth";
import { noStore } from "./error-response";
import { OAuthFailure } from "../errors";
import { parseParams, readForm } from "./form";

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** RFC 7662 §2.2: only a live token of the caller's own organization is active; anything else says only `active: false`. */
function isActive(record: TokenRecord | undefined, caller: ClientRecord): record is TokenRecord {
  return (
    record !== undefined &&
    record.orgId === caller.orgId &&
    record.revokedAt === null &&
    (record.expiresAt === null || record.expiresAt > Date.now())
  );
}

function describe(ctx: SandboxContext, stores: IdentityStores, record: TokenRecord): IntrospectionResponse {
  const user = record.userId === null ? undefined : stores.users.byId(record.userId);
  return {
    active: true,
    scope: record.scopes.join(" "),
    ...(record.clientId !== null ? { client_id: record.clientId } : {}),
    ...(user ? { username: user.email } : {}),
    ...(record.kind !== "refresh" ? { token_type: "Bearer" as const } : {}),
    ...(record.expiresAt !== null ? { exp: seconds(record.expiresAt) } : {}),
    iat: seconds(record.createdAt),
    sub: record.userId ?? record.clientId ?? record.orgId,
    iss: ctx.config.origin,
  };
}

/** `POST /oauth/introspect` (RFC 7662) for confidential clients, e.g. a resource server of the organization. */
export function registerIntrospectionEndpoint(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.post("/oauth/introspect", async (request, reply) => {
    const form = readForm(request);
    const { token } = parseParams(TokenHintRequest, form);
    const caller = authenticateClient(ctx, request, form);
    if (caller.kind !== "confidential")
      throw new OAuthFailure("invalid_client", "only confidential clients may introspect tokens (RFC 7662 §2.1)");
    const record = ctx.credentials.lookupToken(token);
    const body: IntrospectionResponse = isActive(record, caller) ? describe(ctx, stores, record) : { active: false };
    return noStore(reply).send(body);
  });
}
