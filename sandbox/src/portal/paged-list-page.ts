import { PageQuery } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { ServiceError } from "../errors";
import { fieldOf } from "../validation";
import type { SafeHtml } from "../web/html";
import { sendPortalPage, signedInPage, type PortalView } from "./portal-page";
import { problemPage } from "./problem-page";

/** What a paged list page shows: where it lives, its title, what a page of it is called, and one page's body. */
export interface PagedList {
  path: string;
  title: string;
  /** Named in the 400 page, e.g. "events" → "That page of events does not exist." */
  noun: string;
  body(ctx: SandboxContext, view: PortalView, cursor: string | undefined): SafeHtml;
}

/**
 * The handler of a signed-in list page paged by `?cursor=` (the API's own cursors): a malformed, forged or
 * another organization's cursor (store/paging.ts) is the visitor's mistake — a 400 page, never a server error.
 */
export function pagedListPage(ctx: SandboxContext, stores: IdentityStores, list: PagedList) {
  return signedInPage(ctx, stores, (view, request, reply) => {
    const refused = () => problemPage(reply, view, list.path, 400, `That page of ${list.noun} does not exist.`);
    const query = PageQuery.safeParse({ cursor: fieldOf(request.query, "cursor") });
    if (!query.success) return refused();
    try {
      return sendPortalPage(reply, view, list.path, list.title, list.body(ctx, view, query.data.cursor));
    } catch (error) {
      if (error instanceof ServiceError && error.status === 400) return refused();
      throw error;
    }
  });
}
