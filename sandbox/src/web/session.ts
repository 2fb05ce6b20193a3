import type { CookieSerializeOptions } from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { SESSION_TTL_SECONDS } from "../identity/sessions";
import type { User } from "../identity/users";

/** `cc_session_<data folder ID>`: named per instance, so two sandboxes on one host keep their own sessions. */
export const sessionCookieName = (stores: IdentityStores): string => `cc_session_${stores.sessions.instance}`;

/**
 * HttpOnly (no script reads it) and SameSite=Lax: sent on the top-level GET a client's redirect to
 * `/oauth/authorize` makes, never on cross-site POSTs. Secure whenever the sandbox is served over https.
 */
export function sessionCookieOptions(ctx: SandboxContext): CookieSerializeOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.config.origin.startsWith("https:"), maxAge: SESSION_TTL_SECONDS };
}

/** The signed-in user of the request's session cookie, if the session is live. */
export function signedInUser(stores: IdentityStores, request: FastifyRequest): User | undefined {
  const id = request.cookies[sessionCookieName(stores)];
  const userId = id === undefined ? undefined : stores.sessions.userId(id);
  return userId === undefined ? undefined : stores.users.byId(userId);
}

export function startSession(ctx: SandboxContext, stores: IdentityStores, reply: FastifyReply, user: User): void {
  reply.setCookie(sessionCookieName(stores), stores.sessions.start(user), sessionCookieOptions(ctx));
}

export function endSession(ctx: SandboxContext, stores: IdentityStores, request: FastifyRequest, reply: FastifyReply): void {
  const name = sessionCookieName(stores);
  const id = request.cookies[name];
  if (id !== undefined) stores.sessions.end(id);
  reply.clearCookie(name, sessionCookieOptions(ctx));
}
