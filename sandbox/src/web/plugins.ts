import cookie from "@fastify/cookie";
import csrf from "@fastify/csrf-protection";
import formbody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import { instanceId } from "../store/instance";

/**
 * Form bodies, cookies and CSRF protection for HTML forms, registered into the caller's encapsulated
 * scope only. CSRF uses the double-submit pattern: a secret in an HttpOnly SameSite cookie, a token
 * derived from it in each form (`_csrf`).
 */
export async function registerWebPlugins(scope: FastifyInstance, ctx: SandboxContext): Promise<void> {
  await scope.register(formbody);
  await scope.register(cookie);
  // Named per instance like the session cookie; Secure when the sandbox is served over https.
  await scope.register(csrf, {
    cookieKey: `cc_csrf_${instanceId(ctx.db)}`,
    cookieOpts: { path: "/", sameSite: "lax", httpOnly: true, secure: ctx.config.origin.startsWith("https:") },
  });
}
