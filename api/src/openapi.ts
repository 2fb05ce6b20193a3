import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import {
  AuthorizationCodeRequest,
  AuthorizationRequest,
  AuthorizationServerMetadata,
  ClientCredentialsRequest,
  ClientRegistrationRequest,
  ClientRegistrationResponse,
  IntrospectionResponse,
  OAuthError,
  RefreshTokenRequest,
  TokenHintRequest,
  TokenResponse,
} from "./contract/oauth";
import { Problem } from "./contract/common";
import { Route, routes } from "./contract/routes";
import { z } from "./contract/zod";

type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

const problemContent = { "application/problem+json": { schema: Problem } };
const ERROR_TEXT: Record<number, string> = {
  400: "Malformed request or invalid field (problem+json with `errors`)",
  401: "Missing, invalid, expired or revoked token (`WWW-Authenticate: Bearer`)",
  403: "The token lacks the scope this operation needs",
  404: "No such object in the caller's organization",
  409: "Conflicts with the current state (duplicate group name, group in use by an alert or report)",
  412: "`If-Match` does not match the current `ETag`",
  413: "Request body over 1 MiB",
  422: "Semantically invalid: unknown account, unknown group, Idempotency-Key reused with another body",
  429: "Rate limit exceeded; see `Retry-After` and the `RateLimit-*` headers",
};

function register(registry: OpenAPIRegistry, route: Route): void {
  const statuses = [400, 401, 403, ...(route.body ? [413] : []), 429, ...(route.errors ?? [])];
  const responses: Record<string, unknown> = {
    [route.status]: {
      description: route.status === 204 ? "No Content" : "Success",
      ...(route.etag ? { headers: { ETag: { schema: { type: "string" }, description: "strong validator for `If-Match`" } } } : {}),
      ...(route.response ? { content: { "application/json": { schema: route.response } } } : {}),
    },
  };
  for (const s of [...new Set(statuses)].sort()) responses[s] = { description: ERROR_TEXT[s] ?? "Error", content: problemContent };
  const headers: z.ZodObject | undefined =
    route.etag && route.method !== "GET" && route.method !== "POST"
      ? z.object({ "If-Match": z.string().optional().openapi({ description: "the `ETag` you last read; 412 when it is stale" }) })
      : route.idempotent
        ? z.object({ "Idempotency-Key": z.string().max(255).optional().openapi({ description: "a retry with the same key and body returns the first response; another body is rejected with 422" }) })
        : undefined;
  registry.registerPath({
    method: route.method.toLowerCase() as "get",
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: [{ bearer: [route.scope] }],
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query as z.ZodObject } : {}),
      ...(headers ? { headers } : {}),
      ...(route.body ? { body: { content: { "application/json": { schema: route.body } }, required: true } } : {}),
    },
    responses: responses as never,
  });
}

const oauthError = (description: string) => ({ description, content: { "application/json": { schema: OAuthError } } });
const formBody = (schema: z.ZodType) => ({ body: { content: { "application/x-www-form-urlencoded": { schema } }, required: true } });

/** The authorization server on `{auth_url}` (the origin of `{base_url}`); see sandbox/OAUTH.md. */
function registerOAuth(registry: OpenAPIRegistry): void {
  const common = { tags: ["OAuth"], servers: [{ url: "/" }], security: [] };
  registry.registerPath({
    ...common,
    method: "post",
    path: "/oauth/token",
    operationId: "token",
    summary: "Token endpoint (RFC 6749 §3.2): client_credentials, authorization_code with PKCE, refresh_token (rotating)",
    request: formBody(z.union([ClientCredentialsRequest, AuthorizationCodeRequest, RefreshTokenRequest])),
    responses: {
      200: { description: "RFC 6749 §5.1 access token response", content: { "application/json": { schema: TokenResponse } } },
      400: oauthError("RFC 6749 §5.2 error"),
      401: oauthError("invalid_client (with `WWW-Authenticate`)"),
    },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/.well-known/oauth-authorization-server",
    operationId: "authorizationServerMetadata",
    summary: "RFC 8414 discovery document",
    responses: { 200: { description: "server metadata", content: { "application/json": { schema: AuthorizationServerMetadata } } } },
  });
  registry.registerPath({
    ...common,
    method: "get",
    path: "/oauth/authorize",
    operationId: "authorize",
    summary: "Authorization endpoint (RFC 6749 §4.1.1, RFC 7636, S256 only): sign-in and consent pages, then a redirect with `code`, `state` and `iss` (RFC 9207)",
    request: { query: AuthorizationRequest },
    responses: {
      200: { description: "consent page (HTML)" },
      302: { description: "to sign-in, or to the client's redirect URI with `code` or `error`" },
      400: { description: "unknown client or unregistered redirect URI (HTML; never redirected)" },
    },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/oauth/register",
    operationId: "registerClient",
    summary: "Dynamic client registration (RFC 7591) of public PKCE clients",
    request: { body: { content: { "application/json": { schema: ClientRegistrationRequest } }, required: true } },
    responses: { 201: { description: "registered", content: { "application/json": { schema: ClientRegistrationResponse } } }, 400: oauthError("invalid_redirect_uri or invalid_client_metadata (RFC 7591 §3.2.2)") },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/oauth/revoke",
    operationId: "revokeToken",
    summary: "Revocation (RFC 7009): 200 for every well-formed request; a refresh token takes its whole grant with it",
    request: formBody(TokenHintRequest),
    responses: { 200: { description: "revoked, or nothing to revoke" }, 400: oauthError("invalid_request"), 401: oauthError("invalid_client") },
  });
  registry.registerPath({
    ...common,
    method: "post",
    path: "/oauth/introspect",
    operationId: "introspectToken",
    summary: "Introspection (RFC 7662) for confidential clients; tokens of other organizations are inactive",
    request: formBody(TokenHintRequest),
    responses: { 200: { description: "RFC 7662 §2.2", content: { "application/json": { schema: IntrospectionResponse } } }, 400: oauthError("invalid_request"), 401: oauthError("invalid_client") },
  });
}

/** Builds the OpenAPI 3.1 document of the whole contract from the route table. */
export function buildOpenApiDocument(): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "An API token or an OAuth access token. Scopes: `read` (every GET), `write` (every change), `run` (start a scan).",
  });
  for (const route of routes) register(registry, route);
  registerOAuth(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Cloud Cost Management API",
      version: "1.0.0",
      description: "Contract of cloudcost-pulumi: the spec's endpoints plus the decisions documented in README.md (Contract decisions) and sandbox/README.md.",
    },
    servers: [{ url: "/api/v1" }],
  });
}
