import type { Scope } from "@cloudcost/api/contract";
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { SandboxContext } from "../service/context";
import type { Authentication, Principal } from "../identity/credentials";
import { ServiceError } from "../errors";

const REALM = 'Bearer realm="cloudcost"';
/** RFC 6750 §2.1: `b64token`. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

const REASONS = {
  invalid: "The access token is unknown.",
  expired: "The access token has expired.",
  revoked: "The access token has been revoked.",
} as const;

/** Each request's bearer credentials are resolved once: the rate limit (which runs first) and authentication share it. */
const resolved = new WeakMap<FastifyRequest, Authentication | undefined>();

/**
 * What the request's `Authorization` header proves: undefined without bearer credentials, else the
 * authentication result. However the header is spelled (scheme case, spaces), the same token gives the
 * same principal.
 */
export function resolveBearer(ctx: SandboxContext, request: FastifyRequest): Authentication | undefined {
  if (resolved.has(request)) return resolved.get(request);
  const header = request.headers.authorization;
  let result: Authentication | undefined;
  if (header !== undefined && /^bearer(\s|$)/i.test(header)) {
    const token = BEARER.exec(header)?.[1];
    result =
      token === undefined
        ? { ok: false, reason: "invalid" }
        : ctx.credentials.authenticateBearer(token, (orgId) => ctx.orgs.byId(orgId)?.permissions);
  }
  resolved.set(request, result);
  return result;
}

/**
 * Resolves `Authorization: Bearer` (RFC 6750 §2.1). A request without credentials gets a bare
 * challenge (§3.1: no error code then); a bad token gets `error="invalid_token"` with a description that
 * says whether it is unknown, expired or revoked.
 */
export function authenticate(ctx: SandboxContext, request: FastifyRequest): Principal {
  const result = resolveBearer(ctx, request);
  if (result === undefined) {
    throw new ServiceError(
      401,
      "unauthorized",
      "Unauthorized",
      "Send `Authorization: Bearer <token>` with an API token or an OAuth access token.",
      undefined,
      { "www-authenticate": REALM },
    );
  }
  if (result.ok) return result.principal;
  const description = REASONS[result.reason];
  throw new ServiceError(401, "invalid-token", "Unauthorized", description, undefined, {
    "www-authenticate": `${REALM}, error="invalid_token", error_description="${description}"`,
  });
}

/** RFC 6750 §3.1 `insufficient_scope`: 403 naming the scope the operation needs. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.includes(scope)) return;
  const detail = `This operation needs the "${scope}" scope; the token has: ${principal.scopes.join(", ") || "none"}.`;
  throw new ServiceError(403, "insufficient-scope", "Forbidden", detail, undefined, {
    "www-authenticate": `${REALM}, error="insufficient_scope", scope="${scope}", error_description="this operation needs the ${scope} scope"`,
  });
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the authentication hook of routes that declare one; undefined elsewhere. */
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The scope a route needs (RFC 6750 §3.1); declared on the route, checked by {@link scopeHook}. */
    scope?: Scope;
  }
}

/** The route hook that authenticates the bearer token (401) and records the principal on the request. */
export function authenticationHook(ctx: SandboxContext): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    request.principal = authenticate(ctx, request);
  };
}

/** The route hook that checks the scope the route declares in `config.scope` (403); runs after authentication. */
export const scopeHook: preHandlerAsyncHookHandler = async (request: FastifyRequest, _reply: FastifyReply) => {
  const scope = request.routeOptions.config.scope;
  if (scope === undefined) throw new Error(`route ${request.routeOptions.url} declares no scope`);
  requireScope(authenticated(request), scope);
};

/** The principal the authentication hook recorded; a route that forgot the hook fails loudly instead of serving anyone. */
export function authenticated(request: FastifyRequest): Principal {
  if (request.principal === undefined) throw new Error(`route ${request.routeOptions.url} has no authentication hook`);
  return request.principal;
}
