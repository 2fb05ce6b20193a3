import { CostQuery, type CostByDay, type CostByService, type CostSummary } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { addDays, todayUtc } from "../costs/calendar";
import { isRecord } from "../validation";
import { html, SafeHtml } from "../web/html";
import { CHART_JS_URL, COST_CHARTS_URL } from "./assets";
import { dataTable } from "./data-table";
import { errorSummary, inputField, parseInput, selectField, text, type FormState } from "./form-controls";
import { money } from "./money";
import { sendPortalPage, signedInPage, type PortalView } from "./portal-page";

const PATH = "/portal/costs";
/** Services the chart shows by name; the table lists all of them. */
const CHART_SERVICES = 12;

/** Windows people ask for most; "custom" takes the dates as typed. Billed days end yesterday (UTC). */
const PRESETS = {
  "last-7": ["Last 7 days", (today: string) => ({ from: addDays(today, -7), to: addDays(today, -1) })],
  "last-30": ["Last 30 days", (today: string) => ({ from: addDays(today, -30), to: addDays(today, -1) })],
  "last-90": ["Last 90 days", (today: string) => ({ from: addDays(today, -90), to: addDays(today, -1) })],
  "this-month": ["This month", (today: string) => ({ from: `${today.slice(0, 8)}01`, to: today })],
  "last-month": [
    "Last month",
    (today: string) => {
      const end = addDays(`${today.slice(0, 8)}01`, -1);
      return { from: `${end.slice(0, 8)}01`, to: end };
    },
  ],
} as const satisfies Record<string, readonly [string, (today: string) => { from: string; to: string }]>;
type Preset = keyof typeof PRESETS;
const isPreset = (value: string): value is Preset => Object.hasOwn(PRESETS, value);

/** The window a query asks for: a preset (default last 30 days) or, with `preset=custom`, `from` and `to` as typed. */
function requestedWindow(query: Readonly<Record<string, unknown>>): Record<string, string> {
  const preset = text(query, "preset") || (text(query, "from") || text(query, "to") ? "custom" : "last-30");
  if (isPreset(preset)) return { preset, ...PRESETS[preset][1](todayUtc()) };
  return { preset: "custom", from: text(query, "from"), to: text(query, "to") };
}

/** Data for the charts script, in a JSON block the CSP lets through (it is never executed); `<` escaped so no text ends the element. */
function chartData(byDay: CostByDay, byService: CostByService, providers: readonly string[]): SafeHtml {
  const data = {
    currency: byDay.currency,
    providers,
    days: byDay.days.map((d) => ({ date: d.date, byProvider: Object.fromEntries(d.byProvider.map((p) => [p.provider, p.amount])) })),
    services: byService.items.slice(0, CHART_SERVICES),
  };
  const json = JSON.stringify(data).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
  return new SafeHtml(`<script type="application/json" id="cost-data">${json}</script>`);
}

function windowForm(view: PortalView, state: FormState): SafeHtml {
  const presets: [string, string][] = [
    ...Object.entries(PRESETS).map(([k, [label]]): [string, string] => [k, label]),
    ["custom", "Custom dates"],
  ];
  return html`<form method="get" action="${PATH}" class="panel" aria-label="Cost window">${view.selected ? html`<input type="hidden" name="group" value="${view.selected.id}">` : ""}
<div class="actions">${selectField(state, { name: "preset", label: "Window", options: presets })}${inputField(state, { name: "from", label: "From", type: "date" })}${inputField(state, { name: "to", label: "To", type: "date", hint: "inclusive" })}</div>
<button type="submit">Show costs</button> <small>Dates are used with “Custom dates”; a window is at most 366 days.</small></form>`;
}

function report(summary: CostSummary, byDay: CostByDay, byService: CostByService): SafeHtml {
  const c = byDay.currency;
  const providers = summary.byProvider.filter((p) => p.amount > 0).map((p) => p.provider);
  return html`<section class="panel" aria-labelledby="totals"><h2 id="totals">Totals, ${byDay.from} – ${byDay.to}</h2>
<p>Billed spend <strong>${money(summary.total, c)}</strong>${summary.byProvider.map((p) => html` · ${p.provider} ${money(p.amount, c)}`)}.${summary.forecast.projected > 0 ? html` Forecast for the whole window ${money(summary.forecast.total, c)} (80% interval ${money(summary.forecast.lower, c)} – ${money(summary.forecast.upper, c)}).` : ""}</p></section>
<section aria-labelledby="by-day"><h2 id="by-day">Spend by day</h2>
<div class="chart"><canvas id="chart-by-day" role="img" aria-label="Bar chart of spend per billed day, stacked by provider; the same numbers are in the table below."></canvas></div>
<details><summary>Spend by day as a table</summary>${dataTable(
    ["Date", "Total", ...providers],
    byDay.days.map((d) => [
      d.date,
      money(d.amount, c),
      ...providers.map((p) => money(d.byProvider.find((x) => x.provider === p)?.amount ?? 0, c)),
    ]),
    { cards: false },
  )}</details></section>
<section aria-labelledby="by-service"><h2 id="by-service">Spend by service</h2>
<div class="chart"><canvas id="chart-by-service" role="img" aria-label="Horizontal bar chart of the ${CHART_SERVICES} largest services by spend; every service is in the table below."></canvas></div>
${dataTable(
  ["Service", "Provider", "Spend"],
  byService.items.map((s) => [s.service, s.provider, money(s.amount, c)]),
  { cards: false },
)}</section>
${chartData(byDay, byService, providers)}`;
}

/**
 * Costs: spend by day and by service over a chosen window, drawn with Chart.js (served by the sandbox
 * itself) and listed as tables. The window is checked with the contract's `CostQuery` and the numbers come
 * from the same cost reads as `GET /cost/by-day`, `/cost/by-service` and `/cost/summary`.
 */
export function registerCostsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(
    PATH,
    signedInPage(ctx, stores, (view, request, reply) => {
      const values = requestedWindow(isRecord(request.query) ? request.query : {});
      const parsed = parseInput(CostQuery, { from: values.from, to: values.to, ...(view.selected ? { groupId: view.selected.id } : {}) });
      if (!parsed.ok) {
        const state = { values, errors: parsed.errors };
        return sendPortalPage(reply, view, PATH, "Costs", html`${errorSummary(state, "No costs shown.")}${windowForm(view, state)}`, 400);
      }
      const q = parsed.data;
      const target = ctx.costs.queryTarget(view.user.orgId, q);
      const body = html`${windowForm(view, { values, errors: [] })}${report(ctx.costs.summary(view.user.orgId, q, target), ctx.costs.byDay(view.user.orgId, q, target), ctx.costs.byService(view.user.orgId, q, target))}`;
      return sendPortalPage(reply, view, PATH, view.selected ? `Costs of ${view.selected.name}` : "Costs", body, 200, {
        scripts: [CHART_JS_URL, COST_CHARTS_URL],
      });
    }),
  );
}
