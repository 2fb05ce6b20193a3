import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { sendOAuthError } from "./error-response";
import { OAuthFailure } from "../errors";

/** Client mistakes fastify itself detects before a handler runs, described in RFC 6749 terms. */
function describe(error: FastifyError): string {
  if (error.statusCode === 415) return "the request body must be application/x-www-form-urlencoded";
  if (error.statusCode === 413) return "the request body is too large";
  return "the request is malformed";
}

/** Every error of the OAuth endpoints as RFC 6749 §5.2 JSON; unexpected ones are logged and never shown. */
export function oauthErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof OAuthFailure) return sendOAuthError(reply, error);
  if (error.statusCode !== undefined && error.statusCode < 500)
    return sendOAuthError(reply, new OAuthFailure("invalid_request", describe(error)));
  request.log.error({ err: error }, "OAuth endpoint failed");
  return reply
    .code(500)
    .header("cache-control", "no-store")
    .send({ error: "server_error", error_description: "internal error; see the sandbox log" });
}
