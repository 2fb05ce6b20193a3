import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { html } from "../web/html";
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
          : html`<table><thead><tr><th scope="col">Name</th><th scope="col">Provider</th><th scope="col">Account ID</th><th scope="col">Cloud Groups</th></tr></thead><tbody>${accounts.map(
              (a) => {
                const groups = inGroup(a.provider, a.accountId);
                return html`<tr><td>${a.name}</td><td>${a.provider}</td><td><code>${a.accountId}</code></td><td>${groups.length === 0 ? "none" : groups.map((g, i) => html`${i > 0 ? ", " : ""}<a href="/portal/groups?group=${g.id}">${g.name}</a>`)}</td></tr>`;
              },
            )}</tbody></table>`;
      const intro = html`<p>Organization <strong>${org?.name ?? view.user.orgId}</strong>, billing currency ${org?.currency ?? "USD"}: ${accounts.length} account${accounts.length === 1 ? "" : "s"}${view.selected ? html` in Cloud Group ${view.selected.name}` : ""}.</p>`;
      return sendPortalPage(reply, view, PATH, "Accounts", html`${intro}${table}`);
    }),
  );
}
