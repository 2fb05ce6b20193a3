import type { BudgetAlert } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { registerGroupScopedList, scopeName } from "./group-scoped-list";
import { html, type SafeHtml } from "../web/html";
import type { PortalView } from "./portal-page";

/** One formatter per currency: building an Intl.NumberFormat costs far more than using one, and a page formats three amounts per alert. */
const formatters = new Map<string, Intl.NumberFormat>();
function money(amount: number, currency: string): string {
  let format = formatters.get(currency);
  if (!format) formatters.set(currency, (format = new Intl.NumberFormat("en-US", { style: "currency", currency })));
  return format.format(amount);
}

function alertRow(view: PortalView, a: BudgetAlert): SafeHtml {
  const used = a.amount > 0 ? Math.round((a.currentSpend / a.amount) * 100) : 0;
  return html`<tr><td>${a.name}</td><td>${scopeName(view, a.groupId)}</td><td>${a.period} (${a.periodStart} – ${a.periodEnd})</td><td>${money(a.amount, a.currency)}</td>
<td>${money(a.currentSpend, a.spendCurrency)} (${used}% of budget)</td><td>${money(a.forecastedSpend, a.spendCurrency)}</td>
<td>${a.thresholds.map((t) => html`${t.percent}% ${t.basis}<br>`)}</td><td>${a.enabled ? "enabled" : "disabled"}</td></tr>`;
}

/** Read-only list of budget alerts with current spend against budget. */
export function registerAlertsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  registerGroupScopedList(app, ctx, stores, {
    path: "/portal/alerts",
    title: "Budget alerts",
    noun: "budget alerts",
    items: (c, orgId) => c.alerts.list(orgId),
    headers: ["Name", "Covers", "Period", "Budget", "Spend so far", "Forecast", "Thresholds", "State"],
    row: alertRow,
  });
}
