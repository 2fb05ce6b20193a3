import { operations, routeById, type OperationId, type Route } from "@cloudcost/api/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../errors";
import { authenticated, authenticationHook, scopeHook } from "../http/bearer-auth";
import { etagOfJson } from "../http/etag";
import { idempotencyKey, requestFingerprint, runIdempotently } from "../http/idempotency";
import type { SandboxContext } from "../service/context";
import { writeTransaction } from "../store/connection";
import { fieldErrors, parseOrThrow } from "../validation";
import type { ApiResponse } from "../http/api-response";
import type { Call, Handler, HandlerMap } from "./handler";

/** `/groups/{groupId}` (OpenAPI) → `/groups/:groupId` (fastify); a literal colon (`/groups:validate`) is escaped as `::`. */
export const fastifyPath = (path: string): string => path.replace(/:/g, "::").replace(/\{([^}]+)\}/g, ":$1");

/** Path parameters that fail their schema name no object: 404, with the offending parameter named. */
function parseParams(route: Route, params: unknown): unknown {
  if (route.params === undefined) return {};
  const result = route.params.safeParse(params);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues, "params");
  throw notFound(`No such object: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}.`, errors);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The call a handler sees: path parameters (404), query and body (400) validated by the operation's own
 * schemas. The overload states what the validation proves — the values are the outputs of exactly the
 * schemas that `Call<Id>` is typed from — which TypeScript cannot follow through a generic operation id.
 */
function validatedCall<Id extends OperationId>(ctx: SandboxContext, route: Route, request: FastifyRequest): Call<Id>;
function validatedCall(ctx: SandboxContext, route: Route, request: FastifyRequest): UncheckedCall {
  return {
    ctx,
    orgId: authenticated(request).orgId,
    params: parseParams(route, request.params),
    query: route.query ? parseOrThrow(route.query, request.query ?? {}, "query") : undefined,
    body: route.body ? parseOrThrow(route.body, request.body, "body") : undefined,
    ifMatch: header(request, "if-match"),
  };
}

/** A call as the generic pipeline builds it, before the overload above gives it its operation's types. */
interface UncheckedCall extends Omit<Call<OperationId>, "params" | "query" | "body"> {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** Runs the handler and serializes its answer once; a change runs in one immediate transaction that commits before anything is sent. */
function execute<Id extends OperationId>(route: Route, handler: Handler<Id>, call: Call<Id>): ApiResponse {
  const run = (): ApiResponse => {
    const outcome = handler(call);
    const body = outcome.body === undefined ? undefined : JSON.stringify(outcome.body);
    const headers: Record<string, string> = {};
    if (route.etag && body !== undefined) headers.etag = etagOfJson(body);
    if ("location" in outcome && outcome.location) headers.location = outcome.location;
    return { status: route.status, body, headers };
  };
  return route.method === "GET" ? run() : writeTransaction(call.ctx.db, run);
}

/** The handler of one operation: validate, then run (once per `Idempotency-Key` when the route honours one). */
async function respond<Id extends OperationId>(
  ctx: SandboxContext,
  route: Route,
  handler: Handler<Id>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const call = validatedCall<Id>(ctx, route, request);
  const key = route.idempotent ? idempotencyKey(request) : undefined;
  const response =
    key === undefined
      ? execute(route, handler, call)
      : runIdempotently(ctx, call.orgId, key, requestFingerprint(request), () => execute(route, handler, call));
  reply.code(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.type("application/json").send(response.body);
}

function registerOperation<Id extends OperationId>(api: FastifyInstance, ctx: SandboxContext, operationId: Id, handler: Handler<Id>): void {
  const route: Route = routeById(operationId);
  api.route({
    method: route.method,
    url: fastifyPath(route.path),
    // Declared on the route, in this order: the bearer token (401), then the route's scope (403).
    config: { scope: route.scope },
    preHandler: [authenticationHook(ctx), scopeHook],
    handler: (request, reply) => respond(ctx, route, handler, request, reply),
  });
}

/**
 * Registers every operation of the contract's table (the single source of truth for method, path, scope and
 * schemas) with its handler; the `HandlerMap` type proves that every operation has exactly one.
 */
export function registerApiRoutes(api: FastifyInstance, ctx: SandboxContext, handlers: HandlerMap): void {
  const register = <Id extends OperationId>(operationId: Id): void => registerOperation(api, ctx, operationId, handlers[operationId]);
  for (const { operationId } of operations) register(operationId);
}
