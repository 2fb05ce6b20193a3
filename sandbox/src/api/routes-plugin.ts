import { routes, type Route, type z } from "@cloudcost/api";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import { writeTransaction } from "../store/connection";
import type { Call, Handler, HandlerMap } from "./handler";
import { notFound } from "../errors";
import { fieldErrors, parseOrThrow } from "../validation";
import type { ApiResponse } from "../http/api-response";
import { authenticate, requireScope } from "../http/bearer-auth";
import { etagOfJson } from "../http/etag";
import { idempotencyKey, requestFingerprint, runIdempotently } from "../http/idempotency";

/** `/groups/{groupId}` (OpenAPI) → `/groups/:groupId` (fastify). */
export const fastifyPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ":$1");

/** Path parameters that fail their schema name no object: 404, with the offending parameter named. */
function parseParams(schema: z.ZodObject, params: unknown): Record<string, string> {
  const result = schema.safeParse(params);
  if (result.success) return result.data as Record<string, string>;
  const errors = fieldErrors(result.error.issues, "params");
  throw notFound(`No such object: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}.`, errors);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Runs the handler and serializes its answer once; a change runs in one immediate transaction that commits before anything is sent. */
function execute(ctx: SandboxContext, route: Route, handler: Handler, call: Call): ApiResponse {
  const run = (): ApiResponse => {
    const outcome = handler(call);
    const body = outcome.body === undefined ? undefined : JSON.stringify(outcome.body);
    const headers: Record<string, string> = {};
    if (route.etag && body !== undefined) headers.etag = etagOfJson(body);
    if (outcome.location) headers.location = outcome.location;
    return { status: outcome.status ?? route.status, body, headers };
  };
  return route.method === "GET" ? run() : writeTransaction(ctx.db, run);
}

/** The pipeline of every API route: authenticate (401), scope (403), params (404), query and body (400), then the handler. */
async function respond(
  ctx: SandboxContext,
  route: Route,
  handler: Handler,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const principal = authenticate(ctx, request);
  requireScope(principal, route.scope);
  const call: Call = {
    ctx,
    orgId: principal.orgId,
    params: route.params ? parseParams(route.params, request.params) : {},
    query: route.query ? parseOrThrow(route.query, request.query ?? {}, "query") : undefined,
    body: route.body ? parseOrThrow(route.body, request.body, "body") : undefined,
    ifMatch: header(request, "if-match"),
  };
  const key = route.idempotent ? idempotencyKey(request) : undefined;
  const response =
    key === undefined
      ? execute(ctx, route, handler, call)
      : runIdempotently(ctx, principal.orgId, key, requestFingerprint(request), () => execute(ctx, route, handler, call));
  reply.code(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.type("application/json").send(response.body);
}

/**
 * Registers every route of the contract's table (the single source of truth for method, path, scope and
 * schemas); `handlers` supplies the logic by `operationId`. A route without a handler, or a handler
 * without a route, stops the server from starting.
 */
export function registerApiRoutes(api: FastifyInstance, ctx: SandboxContext, handlers: HandlerMap): void {
  const unused = Object.keys(handlers).filter((id) => !routes.some((r) => r.operationId === id));
  if (unused.length) throw new Error(`handlers without a route: ${unused.join(", ")}`);
  for (const route of routes) {
    const handler = handlers[route.operationId];
    if (!handler) throw new Error(`no handler for ${route.operationId}`);
    api.route({
      method: route.method,
      url: fastifyPath(route.path),
      handler: (request, reply) => respond(ctx, route, handler, request, reply),
    });
  }
}
