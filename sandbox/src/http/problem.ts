import type { Problem } from "@cloudcost/api/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../errors";

/** Sends an RFC 9457 problem (`application/problem+json`) carrying the request ID (also in `X-Request-Id`). */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply {
  const body: Problem = {
    type: error.type,
    title: error.title,
    status: error.status,
    detail: error.message,
    instance: request.url.split("?")[0],
    requestId: request.id,
    ...(error.errors ? { errors: error.errors } : {}),
  };
  // Set here too: errors the router raises before any hook (malformed percent-encoding) skip `onRequest`.
  return reply.code(error.status).headers(error.headers).header("x-request-id", request.id).type("application/problem+json").send(body);
}

/** Client mistakes fastify detects before a handler runs (content type, size, JSON syntax, …). */
const FRAMEWORK_PROBLEMS: Readonly<Record<number, { slug: string; title: string }>> = {
  400: { slug: "malformed-request", title: "Malformed request" },
  404: { slug: "not-found", title: "Not found" },
  413: { slug: "payload-too-large", title: "Request body too large" },
  415: { slug: "unsupported-media-type", title: "Unsupported media type" },
};

/** Explains a framework error in problem terms; anything not a client error becomes an opaque 500. */
export function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const status = typeof error === "object" && error !== null && "statusCode" in error ? Number(error.statusCode) : 500;
  const known = FRAMEWORK_PROBLEMS[status];
  const cause = { cause: error };
  if (known) return new ServiceError(status, known.slug, known.title, frameworkDetail(status, error), undefined, {}, cause);
  if (status >= 400 && status < 500)
    return new ServiceError(status, "client-error", "Bad request", frameworkDetail(status, error), undefined, {}, cause);
  return new ServiceError(
    500,
    "internal",
    "Internal error",
    "The sandbox failed to handle this request; the request ID identifies it in the sandbox log.",
    undefined,
    {},
    cause,
  );
}

function frameworkDetail(status: number, error: unknown): string {
  if (status === 413) return "The request body is larger than 1 MiB (1048576 bytes).";
  if (status === 415) return "Request bodies must be JSON: send `Content-Type: application/json`.";
  const message = error instanceof Error ? error.message : "";
  return message || "The request is malformed.";
}
