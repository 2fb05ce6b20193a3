import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { digest } from "../identity/hashing";
import { ServiceError } from "../service-error";

/** Requests are counted per bearer token (its digest, never the token), or per client IP without one. */
function rateLimitKey(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  return auth ? `token:${digest(auth)}` : `ip:${request.ip}`;
}

/**
 * Per-token limit over a one-minute window, answered with 429, `Retry-After` and the IETF draft
 * `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit-Reset` headers. `perMinute` 0 turns it off.
 * Register before the routes: the plugin attaches itself to routes as they are added.
 */
export async function registerRateLimit(api: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await api.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    enableDraftSpec: true,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) =>
      new ServiceError(429, "rate-limited", "Too many requests", `More than ${context.max} requests per minute with this token; retry in ${context.after}.`),
  });
}
