import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { html, type SafeHtml } from "../web/html";
import { sendPortalPage, signedInPage, type PortalView } from "./portal-page";

/** A read-only portal table of resources that may cover one Cloud Group (alerts, reports). */
export interface GroupScopedList<T extends { groupId: string | null }> {
  path: string;
  title: string;
  /** Plural noun for the empty state, e.g. "budget alerts". */
  noun: string;
  items(ctx: SandboxContext, orgId: string): T[];
  headers: readonly string[];
  row(view: PortalView, item: T): SafeHtml;
}

/** What a resource covers: its Cloud Group's name, or the whole organization. */
export function scopeName(view: PortalView, groupId: string | null): string {
  return groupId === null ? "whole organization" : (view.groups.find((g) => g.id === groupId)?.name ?? groupId);
}

/** Registers the page; the global filter narrows the list to the selected group. */
export function registerGroupScopedList<T extends { groupId: string | null }>(
  app: FastifyInstance,
  ctx: SandboxContext,
  stores: IdentityStores,
  page: GroupScopedList<T>,
): void {
  app.get(
    page.path,
    signedInPage(ctx, stores, (view, _request, reply) => {
      const items = page.items(ctx, view.user.orgId).filter((item) => !view.selected || item.groupId === view.selected.id);
      const body =
        items.length === 0
          ? html`<p>No ${page.noun}${view.selected ? " for this group" : ""}. Create them through the API or with Pulumi.</p>`
          : html`<table><thead><tr>${page.headers.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${items.map((item) => page.row(view, item))}</tbody></table>`;
      return sendPortalPage(reply, view, page.path, page.title, body);
    }),
  );
}
