import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import type { Principal } from "../identity/credentials";
import { ServiceError } from "../errors";
import { resolveBearer } from "./bearer-auth";

/**
 * The identity a request's budget belongs to: an OAuth client's tokens share one budget (per user in the
 * code flow), so minting more tokens buys no more requests; an API token has its own. Keyed on the
 * authenticated principal, never on the header's text: respelling `Authorization` (scheme case, spaces)
 * is the same caller. A request without a valid token counts against its client address.
 */
export function principalKey(principal: Principal): string {
  return principal.clientId !== null ? `client:${principal.clientId}:${principal.userId ?? ""}` : `token:${principal.tokenRef}`;
}

function rateLimitKey(ctx: SandboxContext, request: FastifyRequest): string {
  const result = resolveBearer(ctx, request);
  return result?.ok ? principalKey(result.principal) : `ip:${request.ip}`;
}

/**
 * Per-token limit over a one-minute window, answered with 429, `Retry-After` and the IETF draft
 * `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit-Reset` headers. `perMinute` 0 turns it off.
 * Register before the routes: the plugin attaches itself to routes as they are added.
 */
export async function registerRateLimit(api: FastifyInstance, ctx: SandboxContext, perMinute: number, windowMs = 60_000): Promise<void> {
  if (perMinute === 0) return;
  await api.register(rateLimit, {
    max: perMinute,
    timeWindow: windowMs,
    enableDraftSpec: true,
    keyGenerator: (request) => rateLimitKey(ctx, request),
    errorResponseBuilder: (_request, context) =>
      new ServiceError(
        429,
        "rate-limited",
        "Too many requests",
        `More than ${context.max} requests per ${windowMs === 60_000 ? "minute" : `${windowMs} ms`} from this client; retry in ${context.after}.`,
      ),
  });
}
