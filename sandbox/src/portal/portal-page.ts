import type { CloudGroup } from "@cloudcost/api/contract";
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
  /** The page's other query fields (say the Costs window), which the global filter's form sends again. */
  carried: ReadonlyArray<readonly [string, string]>;
}

/** Query fields the global filter never re-sends: its own, and a cursor, which belongs to the unfiltered list. */
const NOT_CARRIED = new Set(["group", "cursor"]);

/** A GET page's own query fields (short strings, a handful at most): what the global filter keeps when it changes. */
function carriedFields(request: FastifyRequest): Array<readonly [string, string]> {
  if (request.method !== "GET" || typeof request.query !== "object" || request.query === null) return [];
  return Object.entries(request.query)
    .filter((entry): entry is [string, string] => !NOT_CARRIED.has(entry[0]) && typeof entry[1] === "string" && entry[1].length <= 100)
    .slice(0, 8);
}

/** `href` within the global filter's selection, so a link, form or redirect keeps the chosen Cloud Group. */
export function withGroup(view: PortalView, href: string): string {
  return view.selected ? `${href}${href.includes("?") ? "&" : "?"}group=${encodeURIComponent(view.selected.id)}` : href;
}

type PageHandler = (view: PortalView, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | FastifyReply;

/** Runs `handler` for a signed-in user; anyone else is sent to sign in and brought back afterwards. */
export function signedInPage(ctx: SandboxContext, stores: IdentityStores, handler: PageHandler) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const user = signedInUser(stores, request);
    if (!user) return reply.redirect(signInUrl(request.url), request.method === "GET" ? 302 : 303);
    const groups = ctx.groups.list(user.orgId);
    const wanted = fieldOf(request.query, "group");
    const selected = groups.find((g) => g.id === wanted);
    return handler({ user, csrf: reply.generateCsrf(), groups, selected, carried: carriedFields(request) }, request, reply);
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
<form method="get" action="${path}" aria-label="Global filter">${view.carried.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}<label>Cloud Group <select name="group"><option value="">All groups</option>${view.groups.map(
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
