import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import {
  AuthorizationCodeRequest,
  AuthorizationRequest,
  AuthorizationServerMetadata,
  CLIENT_REGISTRATIONS_PER_MINUTE,
  ClientCredentialsRequest,
  ClientRegistrationRequest,
  ClientRegistrationResponse,
  IntrospectionResponse,
  OAuthError,
  RefreshTokenRequest,
  TokenHintRequest,
  TokenResponse,
} from "./contract/oauth";
import { IdempotencyKey, Problem } from "./contract/common";
import { RESPONSE_HEADERS, type ResponseHeaderName } from "./contract/response-headers";
import { SERVER_ANSWERS, type ServerAnswer } from "./contract/server-answers";
import { API_BASE_PATH, Route, routes } from "./contract/routes";
import { z } from "./contract/zod";

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31["generateDocument"]>;

/** What makes one document: its metadata and what it registers. The service has one; `/sandbox/v1` would get another. */
export interface DocumentSpec {
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  register(registry: OpenAPIRegistry): void;
}

const LICENSE = { name: "Apache-2.0", identifier: "Apache-2.0" };

type Headers = Record<string, { $ref: string }>;
type Content = Record<string, { schema: unknown }>;
interface Response {
  description: string;
  headers?: Headers;
  content?: Content;
}

/** References to the header components, in the order given. */
function headers(names: readonly ResponseHeaderName[]): Headers {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}
const withHeaders = (description: string, names: readonly ResponseHeaderName[], content?: Content): Response => ({
  description,
  headers: headers(names),
  ...(content ? { content } : {}),
});

const problem: Content = { "application/problem+json": { schema: Problem } };
/** Headers on every response of `/api/v1` (the rate-limit ones while rate limiting is on, the default). */
const API: readonly ResponseHeaderName[] = ["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/**
 * What every operation of every document can answer (api/src/contract/server-answers.ts), as problems carrying
 * only `X-Request-Id`: they are given before any part of the server adds its own headers.
 */
const SERVER_RESPONSES: Record<ServerAnswer, Response> = Object.fromEntries(
  Object.entries(SERVER_ANSWERS).map(([status, description]) => [status, withHeaders(description, ["X-Request-Id"], problem)]),
) as Record<ServerAnswer, Response>;

type PathConfig = Parameters<OpenAPIRegistry["registerPath"]>[0];
/** Registers one operation with the server-wide answers added to its own: the one way operations are registered. */
function registerOperation(registry: OpenAPIRegistry, config: PathConfig): void {
  registry.registerPath({ ...config, responses: { ...config.responses, ...SERVER_RESPONSES } as never });
}

/** Methods whose request body fastify reads: a body that is not JSON is a 415, one over 1 MiB a 413, also where no body is expected. */
const readsBody = (route: Route): boolean => route.method !== "GET";
/** PUT, PATCH and DELETE on a tagged resource take `If-Match` (412 when stale); see the route table. */
const takesIfMatch = (route: Route): boolean => route.etag === true && route.method !== "GET" && route.method !== "POST";

/** Every status an API operation can answer, from the route's own errors and the hooks every route runs through. */
function errorResponses(route: Route): Record<number, Response> {
  const errors = new Set(route.errors ?? []);
  const out: Record<number, Response> = {
    401: withHeaders(
      "Missing, invalid, expired or revoked token; `WWW-Authenticate: Bearer` says which (RFC 6750 §3.1)",
      [...API, "WWW-Authenticate"],
      problem,
    ),
    403: withHeaders(
      `The token lacks the \`${route.scope}\` scope (\`WWW-Authenticate\` with \`error="insufficient_scope"\`)`,
      [...API, "WWW-Authenticate"],
      problem,
    ),
  };
  // Without a query, a body or a body-reading method nothing a client sends can be malformed beyond routing.
  const invalidFields = [
    ...(route.query ? ["an invalid query parameter (`query.…`)"] : []),
    ...(route.body ? ["an invalid body field (`body.…`)"] : []),
    ...(route.idempotent ? ["an invalid `Idempotency-Key` (`header.Idempotency-Key`)"] : []),
  ];
  const malformed = [...(readsBody(route) ? ["a body that is not valid JSON"] : []), ...invalidFields];
  const named = invalidFields.length ? "; the problem's `errors` name each invalid field" : "";
  if (malformed.length) out[400] = withHeaders(`Malformed request: ${malformed.join("; ")}${named}`, API, problem);
  if (route.params || errors.has(404))
    out[404] = withHeaders(
      route.params
        ? "No such object in the caller's organization (also for a malformed ID)"
        : (route.notFound ?? "A referenced Cloud Group does not exist"),
      API,
      problem,
    );
  if (errors.has(409)) {
    const conflict =
      route.conflict ??
      (route.method === "DELETE"
        ? "the group is used by an alert or report (the detail lists them)"
        : "another Cloud Group has this name (names are unique case-insensitively)");
    out[409] = withHeaders(`Conflicts with the current state: ${conflict}`, API, problem);
  }
  if (takesIfMatch(route))
    out[412] = withHeaders("`If-Match` does not match the current `ETag`, which this response carries", [...API, "ETag"], problem);
  if (readsBody(route)) {
    out[413] = withHeaders("Request body over 1 MiB", API, problem);
    out[415] = withHeaders("A request body that is not `application/json`", API, problem);
  }
  if (errors.has(422) || route.idempotent) {
    const reasons = [
      ...(errors.has(422)
        ? [
            "a referenced account is not connected, a referenced Cloud Group does not exist, a group is at its member limit, or a filter names an account that is not connected or a tag key that is not a cost allocation tag of the organization (the problem's `errors` say which)",
          ]
        : []),
      ...(route.idempotent ? ["an `Idempotency-Key` already used with another request"] : []),
    ];
    out[422] = withHeaders(`Semantically invalid: ${reasons.join("; ")}`, API, problem);
  }
  out[429] = withHeaders("Rate limit exceeded; retry after `Retry-After` seconds", [...API, "Retry-After"], problem);
  out[503] = withHeaders(
    "Temporarily unavailable; nothing was changed, retry after `Retry-After` seconds (the sandbox answers it under `serve --faults`)",
    ["X-Request-Id", "Retry-After"],
    problem,
  );
  return out;
}

function successResponse(route: Route): Response {
  const names: ResponseHeaderName[] = [...API];
  if (route.etag && route.response) names.push("ETag");
  if (route.status === 201 || route.status === 202) names.push("Location");
  if (route.idempotent) names.push("Idempotent-Replayed");
  const description = { 200: "Success", 201: "Created", 202: "Accepted: the work is queued", 204: "No Content" }[route.status];
  return withHeaders(description, names, route.response ? { "application/json": { schema: route.response } } : undefined);
}

/** Each response header once, as a component the responses refer to. */
function registerHeaderComponents(registry: OpenAPIRegistry): void {
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent("headers", name, { ...header });
}

function requestHeaders(route: Route): z.ZodObject | undefined {
  if (takesIfMatch(route)) {
    return z.object({
      "If-Match": z
        .string()
        .optional()
        .openapi({ description: "the `ETag` you last read, or `*`; 412 when it no longer matches (RFC 9110 §13.1.1)" }),
    });
  }
  if (route.idempotent) return z.object({ "Idempotency-Key": IdempotencyKey.optional() });
  return undefined;
}

function registerApiRoute(registry: OpenAPIRegistry, route: Route): void {
  const headerSchema = requestHeaders(route);
  registerOperation(registry, {
    method: route.method.toLowerCase() as "get",
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: [{ bearer: [route.scope] }],
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query as z.ZodObject } : {}),
      ...(headerSchema ? { headers: headerSchema } : {}),
      ...(route.body ? { body: { content: { "application/json": { schema: route.body } }, required: true } } : {}),
    },
    responses: { [route.status]: successResponse(route), ...errorResponses(route) } as never,
  });
}

/** The document itself, at `{base_url}/openapi.json`: public and not rate limited. */
function registerDocumentRoute(registry: OpenAPIRegistry): void {
  registerOperation(registry, {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This OpenAPI document (no token needed)",
    tags: ["Contract"],
    security: [],
    responses: {
      200: withHeaders("The OpenAPI 3.1 document", ["X-Request-Id"], { "application/json": { schema: { type: "object" } } }),
    } as never,
  });
}

const OAUTH_NO_STORE: readonly ResponseHeaderName[] = ["X-Request-Id", "Cache-Control", "Pragma"];
const oauthError = (description: string, extra: readonly ResponseHeaderName[] = []): Response =>
  withHeaders(description, [...OAUTH_NO_STORE, ...extra], { "application/json": { schema: OAuthError } });
const invalidClient = oauthError("`invalid_client`: client authentication failed (RFC 6749 §5.2)", ["WWW-Authenticate"]);
const formBody = (schema: z.ZodType) => ({ body: { content: { "application/x-www-form-urlencoded": { schema } }, required: true } });
const html: Content = { "text/html": { schema: { type: "string", description: "an HTML page" } } };
const PAGE: readonly ResponseHeaderName[] = [
  "X-Request-Id",
  "Cache-Control",
  "X-Frame-Options",
  "Referrer-Policy",
  "X-Content-Type-Options",
  "Content-Security-Policy",
];

/** The authorization server on `{auth_url}` (the origin of `{base_url}`); see sandbox/OAUTH.md. */
function registerOAuth(registry: OpenAPIRegistry): void {
  const common = { tags: ["OAuth"], servers: [{ url: "/", description: "the origin of the API (`{auth_url}`)" }], security: [] };
  // Client authentication is HTTP Basic or the form's client_id/client_secret (RFC 6749 §2.3.1), or none for public clients.
  const clientAuth = { ...common, security: [{ clientBasic: [] }, {}] as Record<string, string[]>[] };
  registry.registerComponent("securitySchemes", "clientBasic", {
    type: "http",
    scheme: "basic",
    description:
      "OAuth client authentication (RFC 6749 §2.3.1): the client ID and secret, form-urlencoded, as user and password. The form's `client_id` and `client_secret` work too.",
  });
  registerOperation(registry, {
    ...clientAuth,
    method: "post",
    path: "/oauth/token",
    operationId: "token",
    summary: "Token endpoint (RFC 6749 §3.2): client_credentials, authorization_code with PKCE, refresh_token (rotating)",
    description:
      "Confidential clients authenticate with HTTP Basic or `client_id` and `client_secret` in the form (RFC 6749 §2.3.1); public clients send `client_id` only.",
    request: formBody(z.union([ClientCredentialsRequest, AuthorizationCodeRequest, RefreshTokenRequest])),
    responses: {
      200: withHeaders("RFC 6749 §5.1 access token response", OAUTH_NO_STORE, { "application/json": { schema: TokenResponse } }),
      400: oauthError("RFC 6749 §5.2 error (a body that is not a form is `invalid_request`)"),
      401: invalidClient,
    } as never,
  });
  registerOperation(registry, {
    ...common,
    method: "get",
    path: "/.well-known/oauth-authorization-server",
    operationId: "authorizationServerMetadata",
    summary: "RFC 8414 discovery document",
    responses: {
      200: withHeaders("server metadata", ["X-Request-Id", "Cache-Control"], {
        "application/json": { schema: AuthorizationServerMetadata },
      }),
    } as never,
  });
  registerOperation(registry, {
    ...common,
    method: "get",
    path: "/oauth/authorize",
    operationId: "authorize",
    summary:
      "Authorization endpoint (RFC 6749 §4.1.1, RFC 7636, S256 only): sign-in and consent pages, then a redirect with `code`, `state` and `iss` (RFC 9207)",
    description:
      "A browser endpoint. The consent form posts back to the same path (CSRF-protected, not part of this contract) and is answered with a 303 to the client's redirect URI.",
    request: { query: AuthorizationRequest },
    responses: {
      200: withHeaders("consent page for the signed-in user", [...PAGE, "Set-Cookie"], html),
      302: withHeaders("to the sign-in page (no session), or to the client's redirect URI with `error` (RFC 6749 §4.1.2.1)", [
        "X-Request-Id",
        "Location",
        "Cache-Control",
      ]),
      400: withHeaders(
        "unknown client, unregistered redirect URI or malformed request: a page, never a redirect (RFC 6749 §4.1.2.1)",
        PAGE,
        html,
      ),
    } as never,
  });
  registerOperation(registry, {
    ...common,
    method: "post",
    path: "/oauth/register",
    operationId: "registerClient",
    summary: "Dynamic client registration (RFC 7591) of public PKCE clients",
    request: { body: { content: { "application/json": { schema: ClientRegistrationRequest } }, required: true } },
    responses: {
      201: withHeaders("registered", OAUTH_NO_STORE, { "application/json": { schema: ClientRegistrationResponse } }),
      400: oauthError("`invalid_redirect_uri` or `invalid_client_metadata` (RFC 7591 §3.2.2)"),
      429: oauthError(
        `\`invalid_request\`: more than ${CLIENT_REGISTRATIONS_PER_MINUTE} registrations from this address in a minute; retry after \`Retry-After\` seconds`,
        ["Retry-After"],
      ),
    } as never,
  });
  registerOperation(registry, {
    ...clientAuth,
    method: "post",
    path: "/oauth/revoke",
    operationId: "revokeToken",
    summary: "Revocation (RFC 7009): 200 for every well-formed request; a refresh token takes its whole grant with it",
    request: formBody(TokenHintRequest),
    responses: {
      200: withHeaders("revoked, or nothing to revoke (no body)", OAUTH_NO_STORE),
      400: oauthError("`invalid_request`"),
      401: invalidClient,
    } as never,
  });
  registerOperation(registry, {
    ...clientAuth,
    method: "post",
    path: "/oauth/introspect",
    operationId: "introspectToken",
    summary: "Introspection (RFC 7662) for confidential clients; tokens of other organizations are inactive",
    request: formBody(TokenHintRequest),
    responses: {
      200: withHeaders("RFC 7662 §2.2", OAUTH_NO_STORE, { "application/json": { schema: IntrospectionResponse } }),
      400: oauthError("`invalid_request`"),
      401: invalidClient,
    } as never,
  });
}

/** Builds one OpenAPI 3.1 document: the shared header components plus what `spec` registers. */
export function buildDocument(spec: DocumentSpec): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registerHeaderComponents(registry);
  spec.register(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: { ...spec.info, license: LICENSE },
    servers: spec.servers,
  });
}

/** The service's document (`/api/v1/openapi.json`, committed as api/openapi.json), from the route table. */
export function buildOpenApiDocument(): OpenApiDocument {
  return buildDocument({
    info: {
      title: "Cloud Cost Management API",
      version: "1.0.0",
      description:
        "Contract of cloudcost-pulumi: the spec's endpoints plus the decisions documented in README.md (Contract decisions) and sandbox/README.md. Every response carries `X-Request-Id`; API responses carry the `RateLimit-*` headers while rate limiting is on. Unknown body fields, and unknown query parameters of the operations that take a query, are rejected with 400.",
    },
    servers: [{ url: API_BASE_PATH, description: "`{base_url}`" }],
    register(registry) {
      registry.registerComponent("securitySchemes", "bearer", {
        type: "http",
        scheme: "bearer",
        description: "An API token or an OAuth access token. Scopes: `read` (every GET), `write` (every change), `run` (start a scan).",
      });
      for (const route of routes) registerApiRoute(registry, route);
      registerDocumentRoute(registry);
      registerOAuth(registry);
    },
  });
}
