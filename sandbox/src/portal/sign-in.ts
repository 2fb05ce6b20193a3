import type { FastifyInstance, FastifyReply } from "fastify";
import type { SandboxContext } from "../context";
import type { IdentityStores } from "../identity/identity-stores";
import { formFields } from "./form-fields";
import { html } from "./html";
import { sendPage } from "./layout";
import { endSession, signedInUser, startSession } from "./session";

/** Failed sign-ins allowed per client address and e-mail address within the window (decision: 5 per 15 minutes). */
export const SIGN_IN_FAILURES_ALLOWED = 5;
const SIGN_IN_WINDOW = "15 minutes";

const HOME = "/portal/groups";

/** Only same-origin paths of the portal or the authorization endpoint: `next` must never become an open redirect. */
function safeNext(next: unknown): string {
  return typeof next === "string" && /^\/(portal\/|oauth\/authorize\?)/.test(next) && !next.includes("\\") ? next : HOME;
}

export function signInUrl(next: string): string {
  return `/portal/sign-in?${new URLSearchParams({ next }).toString()}`;
}

function sendSignInPage(reply: FastifyReply, status: number, next: string, csrfToken: string, error?: string): FastifyReply {
  const body = html`${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="/portal/sign-in"><input type="hidden" name="_csrf" value="${csrfToken}"><input type="hidden" name="next" value="${next}">
<label>E-mail <input type="email" name="email" autocomplete="username" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
<p>The sandbox's seeded user is documented in sandbox/OAUTH.md.</p>`;
  return sendPage(reply, status, "Sign in", body);
}

/** Sign-in and sign-out. Failed attempts are rate limited per client address and e-mail (successes are not counted). */
export function registerSignIn(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  const failures = app.createRateLimit({
    max: SIGN_IN_FAILURES_ALLOWED,
    timeWindow: SIGN_IN_WINDOW,
    keyGenerator: (request) => `${request.ip}|${String(formFields(request).email ?? "").trim().toLowerCase()}`,
  });
  app.get("/portal/sign-in", async (request, reply) => {
    const next = safeNext((request.query as Record<string, unknown>).next);
    if (signedInUser(stores, request)) return reply.redirect(next);
    return sendSignInPage(reply, 200, next, reply.generateCsrf());
  });
  app.post("/portal/sign-in", { preHandler: app.csrfProtection }, async (request, reply) => {
    const form = formFields(request);
    const next = safeNext(form.next);
    // A peek, not a hit: only failures count. `remaining` 0 means the allowance of failures is used up.
    const limit = await failures(request, { increment: false });
    if (!limit.isAllowed && limit.remaining === 0) {
      reply.header("retry-after", String(limit.ttlInSeconds));
      return sendSignInPage(reply, 429, next, reply.generateCsrf(), "Too many failed sign-in attempts. Wait a few minutes and try again.");
    }
    const user = typeof form.email === "string" && typeof form.password === "string" ? await stores.users.verify(form.email, form.password) : undefined;
    if (!user) {
      await failures(request);
      return sendSignInPage(reply, 401, next, reply.generateCsrf(), "E-mail address or password is wrong.");
    }
    startSession(ctx, stores, reply, user);
    return reply.redirect(next, 303);
  });
  app.post("/portal/sign-out", { preHandler: app.csrfProtection }, async (request, reply) => {
    endSession(ctx, stores, request, reply);
    return reply.redirect("/portal/sign-in", 303);
  });
}
