import { routes } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import { ServiceError } from "../errors";
import { sendProblem } from "./problem";
import { CONTROL_ROUTES } from "../events/controls-contract";

/** Paths of the route table (plus the OpenAPI document) and of the sandbox controls as patterns, to tell 405 from 404. */
const PATTERNS = [
  ...[...routes, { method: "GET", path: "/openapi.json" }].map((r) => ({ method: r.method, path: `/api/v1${r.path}` })),
  ...CONTROL_ROUTES.map((r) => ({ method: r.method, path: `/sandbox/v1${r.path}` })),
].map((r) => ({
  method: r.method,
  regex: new RegExp(`^${r.path.replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
}));

/** Methods the API serves at `path` (HEAD wherever GET is). */
function allowedMethods(path: string): string[] {
  const methods = new Set(PATTERNS.filter((p) => p.regex.test(path)).map((p) => p.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods];
}

/** Unknown routes are a 404 problem; a known path with another method is a 405 with `Allow` (RFC 9110 §15.5.6). */
export function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const allowed = allowedMethods(path);
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
  });
}
