import { API_BASE_PATH, LOOPBACK_HOSTNAMES, MAX_REQUEST_BODY_BYTES } from "@cloudcost/api/contract";
import Fastify, { type FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import { handlers } from "../api/handlers";
import { registerApiRoutes } from "../api/routes-plugin";
import { registerFaultInjection, type FaultOptions } from "./fault-injection";
import { clientErrorHandler } from "./client-error";
import { registerEarlyAnswerDiscard } from "./early-answer";
import { registerHostCheck } from "./host-check";
import { acceptJsonOnly } from "./json-body";
import { registerNotFound } from "./not-found";
import { sendProblem, toServiceError } from "./problem";
import { registerRateLimit } from "./rate-limit";
import { RouteIndex } from "./route-index";
import { newId } from "../store/ids";
import { registerOAuth } from "../oauth";
import { registerPortal } from "../portal";
import { ServiceError } from "../errors";
import { registerSandboxControls, type ControlsEngine } from "../events/controls-routes";
import { evaluateOrganization } from "../events/event-engine";

/** Request bodies over 1 MiB are refused with 413 (the contract's documented limit). */
export const BODY_LIMIT_BYTES = MAX_REQUEST_BODY_BYTES;
/** Default per-token rate limit (requests per minute). */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;

export interface ServerOptions {
  /** Requests per minute per token; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** The window the limit counts over; default one minute (a shorter one lets benchmarks see several windows). */
  rateLimitWindowMs?: number;
  faults?: FaultOptions;
  /** The events engine the sandbox controls evaluate with; without one, they evaluate directly in the request. */
  engine?: ControlsEngine;
}

const OPENAPI_PATH = "/openapi.json";

let openApiText: Promise<string> | undefined;
/**
 * The OpenAPI document, built on its first request: building it, with the package entry that holds the builder (and
 * the client), was about a quarter of a CPU second of every start (0.60 → 0.33 s without it, Node 26), and most
 * sandboxes (one per test) are never asked for it.
 */
function openApiDocument(): Promise<string> {
  openApiText ??= import("@cloudcost/api").then(({ buildOpenApiDocument }) => JSON.stringify(buildOpenApiDocument()));
  return openApiText;
}

/** The REST API under `/api/v1`: JSON only, faults first, then the rate limit, then the route table. */
async function registerApi(app: FastifyInstance, ctx: SandboxContext, options: ServerOptions): Promise<void> {
  await app.register(
    async (api) => {
      acceptJsonOnly(api);
      if (options.faults)
        registerFaultInjection(api, options.faults, (request) => request.url.split("?")[0] === `${API_BASE_PATH}${OPENAPI_PATH}`);
      await registerRateLimit(api, ctx, options.rateLimitPerMinute, options.rateLimitWindowMs);
      api.get(OPENAPI_PATH, { config: { rateLimit: false } }, async (_request, reply) =>
        reply.type("application/json").send(await openApiDocument()),
      );
      registerApiRoutes(api, ctx, handlers);
    },
    { prefix: API_BASE_PATH },
  );
}

/** Evaluation without an engine (an embedded server): in the request, one call at a time is the caller's business. */
function directEvaluation(ctx: SandboxContext): ControlsEngine {
  const evaluate = (orgId: string, from?: Date) => evaluateOrganization(ctx, orgId, from);
  return {
    evaluate,
    evaluateSoon: (orgId) =>
      void evaluate(orgId).catch((error: unknown) => console.error(`warning: event evaluation failed: ${String(error)}`)),
  };
}

const LOOPBACK_SET: ReadonlySet<string> = new Set(LOOPBACK_HOSTNAMES);

/**
 * The longest path parameter the router hands to a route: the whole request head Node's parser accepts
 * (its default `maxHeaderSize`, 16 KiB; a longer head is its 431). Every ID that arrives is then judged by
 * its route (a malformed ID is the documented 404 naming the parameter), whatever its length — fastify's
 * default of 100 characters answered a bare 414 no operation declares.
 */
const MAX_PARAM_LENGTH = 16 * 1024;

/** How long a closing server lets requests in flight finish before it drops their connections. */
const CLOSE_GRACE_MS = 2_000;

/** Assembles the whole sandbox on one origin: the API, the OAuth server and the portal (`/` redirects to it). */
export async function buildServer(ctx: SandboxContext, options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newId("req"),
    logger: { level: "warn" },
    // fastify's own 503 while closing is not a problem: the onRequest hook below answers instead.
    return503OnClosing: false,
    // Oversized headers (431) and malformed HTTP (400) fail in Node's parser, before any route or hook.
    clientErrorHandler,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Malformed percent-encoding (400) is refused by the router before any hook runs; without this it
    // gets fastify's own JSON instead of a problem.
    frameworkErrors: (error, request, reply) => sendProblem(request, reply, toServiceError(error)),
  });
  // Before any route: every path the server serves, so a wrong method is a 405 with `Allow` on each of them.
  const routes = RouteIndex.recording(app);
  // A 413 (or any answer given before the body was read) must reach a client that is still sending.
  registerEarlyAnswerDiscard(app);
  // Graceful close: idle connections close at once and requests in flight may finish, but a connection a
  // client abandoned mid-request (its timeout fired) stays open until the client's keep-alive timeout, so
  // after a grace period every remaining connection is closed.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
    setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS).unref();
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (!closing) return;
    // A request that arrives on a kept-alive connection while the server drains.
    return sendProblem(
      request,
      reply,
      new ServiceError(503, "unavailable", "Service unavailable", "The sandbox is shutting down.", undefined, { connection: "close" }),
    );
  });
  registerHostCheck(app, () => ctx.config.allowedHosts ?? LOOPBACK_SET);
  app.setErrorHandler((error, request, reply) => {
    const problem = toServiceError(error);
    if (problem.status >= 500 && problem.slug === "internal") request.log.error({ err: error }, "request failed");
    return sendProblem(request, reply, problem);
  });
  registerNotFound(app, routes);
  await registerApi(app, ctx, options);
  await registerSandboxControls(app, ctx, options.engine ?? directEvaluation(ctx), options.rateLimitPerMinute);
  await registerOAuth(app, ctx);
  await registerPortal(app, ctx, (path) => routes.allowed(path));
  app.get("/", (_request, reply) => reply.redirect("/portal"));
  return app;
}
