import type { BudgetAlert } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../context";
import type { IdentityStores } from "../identity/identity-stores";
import { html, type SafeHtml } from "./html";
import { sendPortalPage, signedInPage, type PortalView } from "./portal-page";

const PATH = "/portal/alerts";

const money = (amount: number, currency: string): string => new Intl.NumberFormat("en-US", { style: "currency", currency }).format(amount);

function scopeName(view: PortalView, groupId: string | null): string {
  return groupId === null ? "whole organization" : (view.groups.find((g) => g.id === groupId)?.name ?? groupId);
}

function alertRow(view: PortalView, a: BudgetAlert): SafeHtml {
  const used = a.amount > 0 ? Math.round((a.currentSpend / a.amount) * 100) : 0;
  return html`<tr><td>${a.name}</td><td>${scopeName(view, a.groupId)}</td><td>${a.period} (${a.periodStart} – ${a.periodEnd})</td><td>${money(a.amount, a.currency)}</td>
<td>${money(a.currentSpend, a.spendCurrency)} (${used}% of budget)</td><td>${money(a.forecastedSpend, a.spendCurrency)}</td>
<td>${a.thresholds.map((t) => html`${t.percent}% ${t.basis}<br>`)}</td><td>${a.enabled ? "enabled" : "disabled"}</td></tr>`;
}

/** Read-only list of budget alerts with current spend against budget; the global filter narrows it to one group. */
export function registerAlertsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(
    PATH,
    signedInPage(ctx, stores, (view, _request, reply) => {
      const alerts = ctx.alerts.list(view.user.orgId).filter((a) => !view.selected || a.groupId === view.selected.id);
      const body =
        alerts.length === 0
          ? html`<p>No budget alerts${view.selected ? " for this group" : ""}. Create them through the API or with Pulumi.</p>`
          : html`<table><thead><tr><th>Name</th><th>Covers</th><th>Period</th><th>Budget</th><th>Spend so far</th><th>Forecast</th><th>Thresholds</th><th>State</th></tr></thead><tbody>${alerts.map((a) => alertRow(view, a))}</tbody></table>`;
      return sendPortalPage(reply, view, PATH, "Budget alerts", body);
    }),
  );
}
