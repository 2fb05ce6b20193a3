import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import type { User } from "../identity/users";
import { formFields } from "../web/form-fields";
import { signedInUser } from "../web/session";
import { signInUrl } from "../web/sign-in-url";
import { redirectWith, scopesForOrganization, validateAuthorization, type ValidAuthorization } from "./authorization-request";
import { AuthorizationFailure, UntrustedRedirect } from "../errors";
import { sendAuthorizationErrorPage, sendConsentPage } from "./consent-page";
import { isRecord } from "../validation";

/** Authorization codes expire after five minutes unless configured otherwise (RFC 6749 §4.1.2: "10 minutes" at most). */
export const DEFAULT_AUTHORIZATION_CODE_TTL_SECONDS = 300;

/**
 * Failures before the client is trusted show a page; later ones go back to the client (RFC 6749 §4.1.2.1)
 * — but only for a signed-in user. Registration is open, so anyone can register `https://evil.example/`
 * and send a signed-out victim an erroneous authorization request: redirecting the error would make this
 * server an open redirector with a trustworthy-looking origin (RFC 9700 §4.11.2). A signed-out user is
 * shown the error instead; every client here is a dynamically registered one.
 */
function authorizeErrorHandler(ctx: SandboxContext, stores: IdentityStores) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (error instanceof AuthorizationFailure && !signedInUser(stores, request)) {
      return sendAuthorizationErrorPage(
        reply,
        400,
        `The authorization request is invalid (${error.failure.code}: ${error.failure.description}). You are not signed in, so you are not sent back to the application.`,
      );
    }
    if (error instanceof AuthorizationFailure) {
      const target = redirectWith(error.redirectUri, ctx.config.origin, {
        error: error.failure.code,
        error_description: error.failure.description,
        state: error.state,
      });
      return reply.header("cache-control", "no-store").redirect(target, request.method === "POST" ? 303 : 302);
    }
    if (error instanceof UntrustedRedirect) return sendAuthorizationErrorPage(reply, 400, error.message);
    if (error.statusCode === 403)
      return sendAuthorizationErrorPage(
        reply,
        403,
        "The form has expired or did not come from this site (CSRF check failed). Go back and try again.",
      );
    if (error.statusCode !== undefined && error.statusCode < 500)
      return sendAuthorizationErrorPage(reply, 400, "The request is malformed.");
    request.log.error({ err: error }, "authorization endpoint failed");
    return sendAuthorizationErrorPage(reply, 500, "Internal error; see the sandbox log.");
  };
}

/** The user's organization must still permit the scopes when the code is issued (spec: scopes ∩ the organization's permissions). */
function permittedScopes(ctx: SandboxContext, auth: ValidAuthorization, user: User) {
  return scopesForOrganization(auth, ctx.orgs.permissions(user.orgId));
}

/** The GET URL of an authorization request, to come back to after signing in. */
function authorizeUrl(auth: ValidAuthorization): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(auth.params)) if (v !== undefined) query.append(k, v);
  return `/oauth/authorize?${query.toString()}`;
}

/** `/oauth/authorize`: GET shows consent (after sign-in), POST records the decision and redirects with a code. */
export function registerAuthorizeEndpoint(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  const errorHandler = authorizeErrorHandler(ctx, stores);
  app.get("/oauth/authorize", { errorHandler }, async (request, reply) => {
    const auth = validateAuthorization(ctx, isRecord(request.query) ? request.query : {});
    const user = signedInUser(stores, request);
    if (!user) return reply.redirect(signInUrl(request.url));
    return sendConsentPage(reply, auth, permittedScopes(ctx, auth, user), user, reply.generateCsrf());
  });
  app.post("/oauth/authorize", { errorHandler, preHandler: app.csrfProtection }, async (request, reply) => {
    const form = { ...formFields(request) };
    const decision = form.decision;
    delete form.decision;
    delete form._csrf;
    const auth = validateAuthorization(ctx, form);
    const user = signedInUser(stores, request);
    if (!user) return reply.redirect(signInUrl(authorizeUrl(auth)), 303);
    const scopes = permittedScopes(ctx, auth, user);
    const ttl = ctx.config.authorizationCodeTtlSeconds ?? DEFAULT_AUTHORIZATION_CODE_TTL_SECONDS;
    const result =
      decision === "allow"
        ? {
            code: stores.codes.issue(
              {
                clientId: auth.client.id,
                userId: user.id,
                orgId: user.orgId,
                redirectUri: auth.redirectUri,
                codeChallenge: auth.codeChallenge,
                scopes,
              },
              ttl,
            ),
          }
        : { error: "access_denied", error_description: "the user denied the request" };
    // RFC 9700 §4.12: 303 so the browser does not re-post the form to the client.
    return reply
      .header("cache-control", "no-store")
      .redirect(redirectWith(auth.redirectUri, ctx.config.origin, { ...result, state: auth.state }), 303);
  });
}
