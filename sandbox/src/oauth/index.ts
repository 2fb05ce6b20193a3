import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import { identityStores } from "../identity/identity-stores";
import { registerWebPlugins } from "../web/plugins";
import { registerAuthorizeEndpoint } from "./authorize";
import { oauthErrorHandler } from "./error-handler";
import { registerIntrospectionEndpoint } from "./introspection";
import { registerMetadataEndpoint } from "./metadata";
import { registerRegistrationEndpoint } from "./registration";
import { registerRevocationEndpoint } from "./revocation";
import { registerTokenEndpoint } from "./token-endpoint";

/**
 * Registers the authorization server (token, discovery, registration, revocation, …) at the origin root.
 * Everything lives in its own encapsulated plugin so the form parser, cookies and the RFC 6749 error
 * format never reach the REST API (which keeps answering 415 to form bodies and problem+json to errors).
 */
export async function registerOAuth(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  await app.register(async (scope) => {
    await registerWebPlugins(scope, ctx);
    scope.setErrorHandler(oauthErrorHandler);
    const stores = identityStores(ctx.db);
    registerMetadataEndpoint(scope, ctx);
    registerAuthorizeEndpoint(scope, ctx, stores);
    registerTokenEndpoint(scope, ctx, stores.codes);
    registerRegistrationEndpoint(scope, ctx);
    registerRevocationEndpoint(scope, ctx);
    registerIntrospectionEndpoint(scope, ctx, stores);
  });
}
