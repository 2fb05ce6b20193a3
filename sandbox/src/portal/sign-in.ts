import type { FastifyInstance, FastifyReply } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { DEMO_USER } from "../identity/bootstrap";
import { AttemptLimiter, giveBackAttempt, takeAttempt } from "../identity/attempt-limiter";
import { formFields } from "../web/form-fields";
import { html } from "../web/html";
import { sendPage } from "../web/layout";
import { endSession, signedInUser, startSession } from "../web/session";
import { fieldOf } from "../validation";

/** Failed sign-ins allowed per client address and e-mail address within the window (decision: 5 per 15 minutes). */
export const SIGN_IN_FAILURES_ALLOWED = 5;
/** Failed sign-ins allowed per client address, whatever the e-mail addresses (password spraying). */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

const HOME = "/portal/groups";
/** Any origin will do: `next` is resolved against it only to tell a same-origin path from anything else. */
const BASE = new URL("http://sandbox.invalid");

/**
 * `next` after signing in: only a same-origin path of the portal or the authorization endpoint, judged on
 * the WHATWG-parsed URL (never a string prefix) and sent on in its parsed, percent-encoded form, so no CR,
 * LF or non-Latin-1 character can reach the `Location` header. Anything else is the default page: `next`
 * never becomes an open redirect (RFC 9700 §4.11) and never an error.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || !/^\/[\x21-\x7e]*$/.test(next) || next.startsWith("//") || next.includes("\\")) return HOME;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return HOME;
  }
  const allowed =
    url.origin === BASE.origin && (url.pathname.startsWith("/portal/") || (url.pathname === "/oauth/authorize" && url.search !== ""));
  return allowed ? `${url.pathname}${url.search}` : HOME;
}

function sendSignInPage(reply: FastifyReply, status: number, next: string, csrfToken: string, error?: string): FastifyReply {
  const body = html`${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="/portal/sign-in"><input type="hidden" name="_csrf" value="${csrfToken}"><input type="hidden" name="next" value="${next}">
<label>E-mail <input type="email" name="email" autocomplete="username" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
<p>This sandbox starts with a demo user: <strong>${DEMO_USER.email}</strong>, password <code>${DEMO_USER.password}</code> (it is local; <code>cloudcost-sandbox serve</code> prints the same).</p>`;
  return sendPage(reply, status, "Sign in", body);
}

/** Sign-in and sign-out. Failed attempts are rate limited per client address and e-mail (successes are not counted). */
export function registerSignIn(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  const perAccount = new AttemptLimiter(SIGN_IN_FAILURES_ALLOWED, SIGN_IN_WINDOW_MS);
  const perAddress = new AttemptLimiter(SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS);
  app.get("/portal/sign-in", async (request, reply) => {
    const next = safeNext(fieldOf(request.query, "next"));
    if (signedInUser(stores, request)) return reply.redirect(next);
    return sendSignInPage(reply, 200, next, reply.generateCsrf());
  });
  app.post("/portal/sign-in", { preHandler: app.csrfProtection }, async (request, reply) => {
    const form = formFields(request);
    const next = safeNext(form.next);
    // Every attempt is counted before the password is checked, in one synchronous step with the limit
    // check (parallel guesses cannot all slip through); a success gives its attempt back, so only
    // failures use up the allowance.
    const email = typeof form.email === "string" ? form.email.trim().toLowerCase() : "";
    const attempt = [
      [perAccount, `${request.ip}|${email}`],
      [perAddress, request.ip],
    ] as const;
    const wait = takeAttempt(attempt);
    if (wait > 0) {
      reply.header("retry-after", String(wait));
      return sendSignInPage(reply, 429, next, reply.generateCsrf(), "Too many failed sign-in attempts. Wait a few minutes and try again.");
    }
    const user =
      typeof form.email === "string" && typeof form.password === "string"
        ? await stores.users.verify(form.email, form.password)
        : undefined;
    if (!user) return sendSignInPage(reply, 401, next, reply.generateCsrf(), "E-mail address or password is wrong.");
    giveBackAttempt(attempt);
    startSession(ctx, stores, reply, user);
    return reply.redirect(next, 303);
  });
  app.post("/portal/sign-out", { preHandler: app.csrfProtection }, async (request, reply) => {
    endSession(ctx, stores, request, reply);
    return reply.redirect("/portal/sign-in", 303);
  });
}
