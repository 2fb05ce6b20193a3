import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { ClientCredentialsRequest, OAuthError, TokenResponse } from "./contract/oauth";
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
  409: "Conflicts with the current state (duplicate name, object in use, Idempotency-Key in flight)",
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

function registerOAuth(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/oauth/token",
    operationId: "token",
    summary: "Token endpoint (served from {auth_url}, the origin of {base_url})",
    tags: ["OAuth"],
    servers: [{ url: "/" }],
    security: [],
    request: { body: { content: { "application/x-www-form-urlencoded": { schema: ClientCredentialsRequest } }, required: true } },
    responses: {
      200: { description: "RFC 6749 §5.1 access token response", content: { "application/json": { schema: TokenResponse } } },
      400: { description: "RFC 6749 §5.2 error", content: { "application/json": { schema: OAuthError } } },
      401: { description: "invalid_client (with `WWW-Authenticate`)", content: { "application/json": { schema: OAuthError } } },
    },
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
      description: "Contract of cloudcost-pulumi: the spec's endpoints plus the decisions documented in README.md (Contract decisions).",
    },
    servers: [{ url: "/api/v1" }],
  });
}
