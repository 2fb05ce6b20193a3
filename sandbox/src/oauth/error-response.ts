import type { OAuthError } from "@cloudcost/api/contract";
import type { FastifyReply } from "fastify";
import type { OAuthFailure } from "../errors";

/** Token responses and errors must never be cached (RFC 6749 §5.1, §5.2). */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header("cache-control", "no-store").header("pragma", "no-cache");
}

/**
 * RFC 6749 §5.2: JSON `{error, error_description}`, 400, or 401 with `WWW-Authenticate` for a client
 * that failed to authenticate (we always send it: the Basic scheme is the one we advertise first).
 */
export function sendOAuthError(reply: FastifyReply, failure: OAuthFailure, status: number = failure.status): FastifyReply {
  if (status === 401) reply.header("www-authenticate", `Basic realm="cloudcost", error="${failure.code}"`);
  const body: OAuthError = { error: failure.code, error_description: failure.description };
  return noStore(reply).code(status).type("application/json").send(body);
}
