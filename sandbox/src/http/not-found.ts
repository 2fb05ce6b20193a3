import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../errors";
import { sendProblem } from "./problem";
import type { RouteIndex } from "./route-index";

/** Unknown routes are a 404 problem; a known path with another method is a 405 with `Allow` (RFC 9110 §15.5.6). */
function answer(routes: RouteIndex, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split("?")[0] ?? "";
  const allowed = routes.allowed(path);
  const error = allowed.length
    ? new ServiceError(
        405,
        "method-not-allowed",
        "Method not allowed",
        `${request.method} is not supported on ${path}; use ${allowed.join(", ")}.`,
        undefined,
        { allow: allowed.join(", ") },
      )
    : new ServiceError(404, "not-found", "Not found", `There is no endpoint ${request.method} ${path}.`);
  return sendProblem(request, reply, error);
}

/**
 * Answers requests no route matches as soon as they arrive (`onRequest`), before fastify looks at their body:
 * a method it treats as carrying a body (`QUERY`) would otherwise get a 400 for a missing Content-Type
 * instead of the 405 or 404 the path and method deserve. The not-found handler stays as the fallback.
 * Registered after the host check, so a foreign `Host` is still a 421 first.
 */
export function registerNotFound(app: FastifyInstance, routes: RouteIndex): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.is404) return answer(routes, request, reply);
  });
  app.setNotFoundHandler((request, reply) => answer(routes, request, reply));
}
