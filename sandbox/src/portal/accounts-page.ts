import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { html } from "../web/html";
import { dataTable } from "./data-table";
import { sendPortalPage, signedInPage } from "./portal-page";

const PATH = "/portal/accounts";

/** The organization's connected cloud accounts (as `GET /accounts` lists them) and the Cloud Groups each belongs to. */
export function registerAccountsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(
    PATH,
    signedInPage(ctx, stores, (view, _request, reply) => {
      const org = ctx.orgs.byId(view.user.orgId);
      const inGroup = (provider: string, accountId: string) =>
        view.groups.filter((g) => g.members.some((m) => m.provider === provider && m.accountId === accountId));
      const accounts = ctx.accounts
        .list(view.user.orgId)
        .filter((a) => !view.selected || view.selected.members.some((m) => m.provider === a.provider && m.accountId === a.accountId));
      const table =
        accounts.length === 0
          ? html`<p>No connected accounts${view.selected ? " in this group" : ""}. Connect them with <code>cloudcost-sandbox account add</code>.</p>`
          : dataTable(
              ["Name", "Provider", "Account ID", "Cloud Groups"],
              accounts.map((a) => {
                const groups = inGroup(a.provider, a.accountId);
                return [
                  a.name,
                  a.provider,
                  html`<code>${a.accountId}</code>`,
                  groups.length === 0
                    ? "none"
                    : html`${groups.map((g, i) => html`${i > 0 ? ", " : ""}<a href="/portal/groups?group=${g.id}">${g.name}</a>`)}`,
                ];
              }),
            );
      const intro = html`<p>Organization <strong>${org?.name ?? view.user.orgId}</strong>, billing currency ${org?.currency ?? "USD"}: ${accounts.length} account${accounts.length === 1 ? "" : "s"}${view.selected ? html` in Cloud Group ${view.selected.name}` : ""}.</p>`;
      return sendPortalPage(reply, view, PATH, "Accounts", html`${intro}${table}`);
    }),
  );
}
