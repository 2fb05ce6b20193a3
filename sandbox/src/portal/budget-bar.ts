import { thresholdLevel, type BudgetAlert } from "@cloudcost/api/contract";
import { html, type SafeHtml } from "../web/html";
import { money } from "./money";

const percentOf = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * Spend so far and the period's forecast against this period's budget (`effectiveAmount`: the planned or
 * history-set amount when there is one, issue 27) and its thresholds, as a bar. The same facts
 * are printed beside it as text (WCAG 1.1.1), so the picture itself is hidden from assistive technology and
 * its tooltip repeats them for pointer users.
 */
export function budgetBar(a: BudgetAlert): SafeHtml {
  const budget = a.effectiveAmount;
  const marks = a.thresholds.map((t) => ({
    label: t.percent !== undefined ? `${t.percent}%` : money(t.amount!, a.currency),
    basis: t.basis,
    amount: thresholdLevel(t, budget),
  }));
  const scale = Math.max(budget, a.currentSpend, a.forecastedSpend, ...marks.map((m) => m.amount)) * 1.05 || 1;
  const x = (amount: number): string => ((amount / scale) * 300).toFixed(1);
  const over = a.forecastedSpend > budget;
  const sameCurrency = a.currency === a.spendCurrency;
  const facts = `Spend so far ${money(a.currentSpend, a.spendCurrency)} (${percentOf(a.currentSpend, budget)}% of the ${money(budget, a.currency)} budget), forecast ${money(a.forecastedSpend, a.spendCurrency)} (${percentOf(a.forecastedSpend, budget)}%); thresholds ${marks.map((m) => `${m.label} ${m.basis}`).join(", ")}${sameCurrency ? "" : `; spend is in ${a.spendCurrency}, the budget in ${a.currency}, not converted`}.`;
  return html`<svg class="budget-bar" viewBox="0 0 300 26" width="300" height="26" aria-hidden="true" focusable="false"><title>${facts}</title>
<rect x="0" y="5" width="300" height="16" fill="#e6e9ee"/><rect x="0" y="5" width="${x(a.forecastedSpend)}" height="16" fill="${over ? "#f4b6b6" : "#b9d3f0"}"/>
<rect x="0" y="9" width="${x(a.currentSpend)}" height="8" fill="${a.currentSpend > budget ? "#a00020" : "#12355b"}"/>
${marks.map((m) => html`<line x1="${x(m.amount)}" x2="${x(m.amount)}" y1="2" y2="24" stroke="#555" stroke-dasharray="2 2"/>`)}
<line x1="${x(budget)}" x2="${x(budget)}" y1="0" y2="26" stroke="#1b1f24" stroke-width="2"/></svg>
<p class="bar-text">${facts}</p>`;
}
