import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import { identityStores } from "../identity/identity-stores";
import { registerAccountsPage } from "./accounts-page";
import { registerAlertsPage } from "./alerts-page";
import { registerPortalAssets } from "./assets";
import { registerCostsPage } from "./costs-page";
import { portalErrorHandler, registerErrorPages } from "./error-pages";
import { registerApiAccessPage } from "./api-access-page";
import { registerEventsPage } from "./events-page";
import { registerGroupsPage } from "./groups-page";
import { registerOutboxPage } from "./outbox-page";
import { registerReportsPage } from "./reports-page";
import { registerSignIn } from "./sign-in";
import { registerWebPlugins } from "../web/plugins";

/**
 * Registers the portal's server-rendered pages under `/portal` in their own encapsulated scope;
 * `allowedMethods` (the server's route index) tells a wrong method on a page (405) from no page (404).
 */
export async function registerPortal(
  app: FastifyInstance,
  ctx: SandboxContext,
  allowedMethods: (path: string) => readonly string[],
): Promise<void> {
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
    registerEventsPage(scope, ctx, stores);
    registerOutboxPage(scope, ctx, stores);
    registerCostsPage(scope, ctx, stores);
    registerAccountsPage(scope, ctx, stores);
    registerPortalAssets(scope);
    registerErrorPages(scope, allowedMethods);
  });
}
