import type { Scope } from "@cloudcost/api";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authenticated, authenticationHook, scopeHook } from "../http/bearer-auth";
import { acceptJsonOnly } from "../http/json-body";
import { registerRateLimit } from "../http/rate-limit";
import type { SandboxContext } from "../service/context";
import { notFound } from "../errors";
import { fieldErrors, parseOrThrow } from "../validation";
import { changeClock, clockState, injectSpend, type Evaluate } from "./controls";
import { AttachmentParams, ClockChange, OutboxQuery, SpendInjection } from "./controls-contract";

/** What the controls need from the engine of this process. */
export interface ControlsEngine {
  evaluate: Evaluate;
  /** Evaluate in the background, soon (after a spend injection). */
  evaluateSoon(orgId: string): void;
}

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
      const route = (method: "GET" | "POST" | "DELETE", url: string, scope: Scope, handler: Handler) =>
        api.route({ method, url, config: { scope }, preHandler: [authenticationHook(ctx), scopeHook], handler });
      const orgOf = (request: FastifyRequest) => authenticated(request).orgId;

      route("GET", "/clock", "read", (request) => clockState(ctx, orgOf(request)));
      route("POST", "/clock", "write", (request) =>
        changeClock(ctx, orgOf(request), parseOrThrow(ClockChange, request.body, "body"), engine.evaluate),
      );
      route("POST", "/spend", "write", (request) => {
        const orgId = orgOf(request);
        const recorded = injectSpend(ctx, orgId, parseOrThrow(SpendInjection, request.body, "body"));
        engine.evaluateSoon(orgId);
        return recorded;
      });
      route("GET", "/outbox", "read", (request) =>
        ctx.outbox.page(orgOf(request), parseOrThrow(OutboxQuery, request.query ?? {}, "query")),
      );
      route("GET", "/outbox/:messageId/attachments/:n", "read", (request, reply) => {
        // A malformed message ID or index names no attachment: 404, like the API's path parameters.
        const parsed = AttachmentParams.safeParse(request.params);
        if (!parsed.success) throw notFound("No such attachment.", fieldErrors(parsed.error.issues, "params"));
        const params = parsed.data;
        const file = ctx.outbox.attachment(orgOf(request), params.messageId, params.n);
        return reply
          .type(file.contentType)
          .header("content-disposition", `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`)
          .header("x-content-type-options", "nosniff")
          .send(file.bytes);
      });
      route("DELETE", "/outbox", "write", (request, reply) => {
        ctx.outbox.clear(orgOf(request));
        return reply.code(204).send();
      });
    },
    { prefix: "/sandbox/v1" },
  );
}
