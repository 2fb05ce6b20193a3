import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authenticated, authenticationHook, scopeHook } from "../http/bearer-auth";
import { acceptJsonOnly } from "../http/json-body";
import { registerRateLimit } from "../http/rate-limit";
import type { SandboxContext } from "../service/context";
import { notFound } from "../errors";
import { fieldErrors, parseOrThrow } from "../validation";
import { changeClock, clockState, injectSpend, type Evaluate } from "./controls";
import {
  AttachmentParams,
  CONTROL_ROUTES,
  ClockChange,
  OutboxQuery,
  SpendInjection,
  type ControlKey,
  type ControlRoute,
} from "./controls-contract";
import { fastifyPath } from "../api/routes-plugin";

/** What the controls need from the engine of this process. */
export interface ControlsEngine {
  evaluate: Evaluate;
  /** Evaluate in the background, soon (after a spend injection). */
  evaluateSoon(orgId: string): void;
}

/** TypeScript does not correlate a route's method and path once destructured: the pair is its key by construction. */
const keyOf = (control: ControlRoute): ControlKey => `${control.method} ${control.path}` as ControlKey;

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

/**
 * The sandbox controls under `/sandbox/v1` (issue 15; sandbox/README.md "Sandbox controls"): not part of
 * the service's contract or OpenAPI document, but behind the same hooks as the API: JSON only, rate
 * limit, bearer token (401), scope (403), problem+json for every error.
 */
export async function registerSandboxControls(
  app: FastifyInstance,
  ctx: SandboxContext,
  engine: ControlsEngine,
  rateLimitPerMinute: number,
): Promise<void> {
  await app.register(
    async (api) => {
      acceptJsonOnly(api);
      await registerRateLimit(api, ctx, rateLimitPerMinute);
      const orgOf = (request: FastifyRequest) => authenticated(request).orgId;
      const handlers: Record<ControlKey, Handler> = {
        "GET /clock": (request) => clockState(ctx, orgOf(request)),
        "POST /clock": (request) => changeClock(ctx, orgOf(request), parseOrThrow(ClockChange, request.body, "body"), engine.evaluate),
        "POST /spend": (request) => {
          const orgId = orgOf(request);
          const recorded = injectSpend(ctx, orgId, parseOrThrow(SpendInjection, request.body, "body"));
          engine.evaluateSoon(orgId);
          return recorded;
        },
        "GET /outbox": (request) => ctx.outbox.page(orgOf(request), parseOrThrow(OutboxQuery, request.query ?? {}, "query")),
        "DELETE /outbox": (request, reply) => {
          ctx.outbox.clear(orgOf(request));
          return reply.code(204).send();
        },
        "GET /outbox/{messageId}/attachments/{n}": (request, reply) => {
          // A malformed message ID or index names no attachment: 404, like the API's path parameters.
          const parsed = AttachmentParams.safeParse(request.params);
          if (!parsed.success) throw notFound("No such attachment.", fieldErrors(parsed.error.issues, "params"));
          const file = ctx.outbox.attachment(orgOf(request), parsed.data.messageId, parsed.data.n);
          return reply
            .type(file.contentType)
            .header("content-disposition", `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`)
            .header("x-content-type-options", "nosniff")
            .send(file.bytes);
        },
      };
      for (const control of CONTROL_ROUTES) {
        const { method, path, scope } = control;
        api.route({
          method,
          url: fastifyPath(path),
          // Declared on the route, as on the API: the bearer token (401), then the scope (403).
          config: { scope },
          preHandler: [authenticationHook(ctx), scopeHook],
          handler: handlers[keyOf(control)],
        });
      }
    },
    { prefix: "/sandbox/v1" },
  );
}
