import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import { identityStores } from "../identity/identity-stores";
import { registerAlertsPage } from "./alerts-page";
import { registerApiAccessPage } from "./api-access-page";
import { registerGroupsPage } from "./groups-page";
import { html } from "../web/html";
import { sendPage } from "../web/layout";
import { registerReportsPage } from "./reports-page";
import { registerSignIn } from "./sign-in";
import { registerWebPlugins } from "../web/plugins";

/** Portal errors are pages: a failed CSRF check explains itself, anything unexpected is logged and never shown. */
function portalErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.statusCode === 403)
    return sendPage(
      reply,
      403,
      "Form expired",
      html`<p class="error">The form has expired or did not come from this site (CSRF check failed). <a href="/portal/groups">Reload the portal</a> and try again.</p>`,
    );
  if (error.statusCode !== undefined && error.statusCode < 500)
    return sendPage(reply, error.statusCode, "Bad request", html`<p class="error">The request is malformed.</p>`);
  request.log.error({ err: error }, "portal page failed");
  return sendPage(reply, 500, "Something went wrong", html`<p class="error">Internal error; see the sandbox log.</p>`);
}

/** Registers the portal's server-rendered pages under `/portal` in their own encapsulated scope. */
export async function registerPortal(app: FastifyInstance, ctx: SandboxContext): Promise<void> {
  await app.register(async (scope) => {
    await registerWebPlugins(scope, ctx);
    scope.setErrorHandler(portalErrorHandler);
    const stores = identityStores(ctx.db);
    scope.get("/portal", async (_request, reply) => reply.redirect("/portal/groups"));
    registerSignIn(scope, ctx, stores);
    registerGroupsPage(scope, ctx, stores);
    registerAlertsPage(scope, ctx, stores);
    registerReportsPage(scope, ctx, stores);
    registerApiAccessPage(scope, ctx, stores);
  });
}
