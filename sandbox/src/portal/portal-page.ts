import type { CloudGroup } from "@cloudcost/api";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import type { User } from "../identity/users";
import { html, type SafeHtml } from "../web/html";
import { sendPage, type PageOptions } from "../web/layout";
import { signedInUser } from "../web/session";
import { signInUrl } from "../web/sign-in-url";
import { fieldOf } from "../validation";

/** What every signed-in portal page knows: who, the CSRF token for its forms, and the global filter's selection. */
export interface PortalView {
  user: User;
  csrf: string;
  groups: CloudGroup[];
  /** The Cloud Group chosen in the global filter (`?group=`), if it exists. */
  selected: CloudGroup | undefined;
}

type PageHandler = (view: PortalView, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | FastifyReply;

/** Runs `handler` for a signed-in user; anyone else is sent to sign in and brought back afterwards. */
export function signedInPage(ctx: SandboxContext, stores: IdentityStores, handler: PageHandler) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const user = signedInUser(stores, request);
    if (!user) return reply.redirect(signInUrl(request.url), request.method === "GET" ? 302 : 303);
    const groups = ctx.groups.list(user.orgId);
    const wanted = fieldOf(request.query, "group");
    return handler({ user, csrf: reply.generateCsrf(), groups, selected: groups.find((g) => g.id === wanted) }, request, reply);
  };
}

const PAGES = [
  ["/portal/costs", "Costs"],
  ["/portal/accounts", "Accounts"],
  ["/portal/groups", "Cloud Groups"],
  ["/portal/alerts", "Budget alerts"],
  ["/portal/reports", "Scheduled reports"],
  ["/portal/events", "Events"],
  ["/portal/outbox", "Outbox"],
  ["/portal/api-access", "API Access"],
] as const;

/** Navigation plus the global filter (every Cloud Group of the organization, API- or portal-created: spec rule 1). */
function header(view: PortalView, path: string): SafeHtml {
  const query = view.selected ? `?group=${encodeURIComponent(view.selected.id)}` : "";
  return html`<nav>${PAGES.map(([href, label]) => html` <a href="${href + query}"${href === path ? html` aria-current="page"` : ""}>${label}</a>`)}</nav>
<form method="get" action="${path}" aria-label="Global filter"><label>Cloud Group <select name="group"><option value="">All groups</option>${view.groups.map(
    (g) => html`<option value="${g.id}"${g.id === view.selected?.id ? html` selected` : ""}>${g.name}</option>`,
  )}</select></label> <button type="submit">Apply</button></form>
<span>${view.user.email}</span><form class="inline" method="post" action="/portal/sign-out"><input type="hidden" name="_csrf" value="${view.csrf}"><button type="submit">Sign out</button></form>`;
}

export function sendPortalPage(
  reply: FastifyReply,
  view: PortalView,
  path: string,
  title: string,
  body: SafeHtml,
  status = 200,
  options?: PageOptions,
): FastifyReply {
  return sendPage(reply, status, title, body, header(view, path), options);
}

/** A hidden CSRF field for a form of this page. */
export function csrfField(view: PortalView): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${view.csrf}">`;
}
