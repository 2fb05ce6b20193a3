import { ALL_SCOPES, type AuthorizationServerMetadata } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import { SUPPORTED_GRANT_TYPES } from "./token-endpoint";

/** Client authentication methods of the token endpoint (RFC 6749 §2.3.1; `none` for public PKCE clients). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"];

/** RFC 8414 §2; the issuer is the sandbox origin, read per request because the port is known only after listen. */
export function serverMetadata(issuer: string): AuthorizationServerMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [...SUPPORTED_GRANT_TYPES],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
    // RFC 7662 §4: only confidential clients (resource servers) may introspect.
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    authorization_response_iss_parameter_supported: true,
  };
}

export function registerMetadataEndpoint(app: FastifyInstance, ctx: SandboxContext): void {
  app.get("/.well-known/oauth-authorization-server", async (_request, reply) =>
    reply.header("cache-control", "max-age=60").send(serverMetadata(ctx.config.origin)),
  );
}
