import type { TokenResponse } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { AuthorizationCodes } from "../identity/authorization-codes";
import type { ClientRecord } from "../identity/credentials";
import { authenticateClient } from "./client-auth";
import { noStore } from "./error-response";
import { OAuthFailure } from "../errors";
import { readForm, type Form } from "./form";
import { authorizationCodeGrant } from "./grants/authorization-code";
import { clientCredentialsGrant } from "./grants/client-credentials";
import { refreshTokenGrant } from "./grants/refresh-token";

type GrantHandler = (client: ClientRecord, form: Form) => TokenResponse;

export const SUPPORTED_GRANT_TYPES = ["authorization_code", "refresh_token", "client_credentials"] as const;
type GrantType = (typeof SUPPORTED_GRANT_TYPES)[number];
const isGrantType = (name: string): name is GrantType => SUPPORTED_GRANT_TYPES.some((g) => g === name);

/** `POST /oauth/token` (RFC 6749 §3.2): authenticates the client, then runs the grant. */
export function registerTokenEndpoint(app: FastifyInstance, ctx: SandboxContext, codes: AuthorizationCodes): void {
  const grants: Record<GrantType, GrantHandler> = {
    authorization_code: (client, form) => authorizationCodeGrant(ctx, codes, client, form),
    refresh_token: (client, form) => refreshTokenGrant(ctx, client, form),
    client_credentials: (client, form) => clientCredentialsGrant(ctx, client, form),
  };
  app.post("/oauth/token", async (request, reply) => {
    const form = readForm(request);
    const client = authenticateClient(ctx, request, form);
    const grantType = form.grant_type;
    if (grantType === undefined) throw new OAuthFailure("invalid_request", `"grant_type" is missing`);
    if (!isGrantType(grantType))
      throw new OAuthFailure(
        "unsupported_grant_type",
        `grant_type "${grantType}" is not supported; supported: ${SUPPORTED_GRANT_TYPES.join(", ")}`,
      );
    return noStore(reply).send(grants[grantType](client, form));
  });
}
