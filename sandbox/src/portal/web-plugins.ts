import cookie from "@fastify/cookie";
import csrf from "@fastify/csrf-protection";
import formbody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";

/**
 * Form bodies, cookies and CSRF protection for HTML forms, registered into the caller's encapsulated
 * scope only. CSRF uses the double-submit pattern: a secret in an HttpOnly SameSite cookie, a token
 * derived from it in each form (`_csrf`).
 */
export async function registerWebPlugins(scope: FastifyInstance): Promise<void> {
  await scope.register(formbody);
  await scope.register(cookie);
  await scope.register(csrf, { cookieOpts: { path: "/", sameSite: "lax", httpOnly: true } });
}
