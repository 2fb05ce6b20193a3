import { thresholdLevel, type BudgetAlert, type DateWindow, type ScheduledReport } from "@cloudcost/api/contract";
import { budgetAmount } from "../costs/budget-amount";
import { addDays } from "../costs/calendar";
import type { SandboxContext } from "../service/context";

/** A report's content as a table: what the CSV and the PDF both show. */
export interface ReportTable {
  title: string;
  /** One line under the title: window, scope and currency. */
  caption: string;
  columns: string[];
  rows: string[][];
}

const amount = (n: number): string => n.toFixed(2);

const percentText = (part: number, whole: number): string => (whole > 0 ? ((part / whole) * 100).toFixed(1) : "");

/**
 * `budget_status` (issue 27): each alert of the report's scope (its Cloud Group, or every alert when it has
 * none) in the alert's period containing the window's last day, as it stood at the end of that day: the
 * period's amount, actual and forecast spend, percent used and the thresholds reached.
 */
function budgetStatusRows(ctx: SandboxContext, orgId: string, report: ScheduledReport, window: DateWindow): string[][] {
  const at = { periodDate: new Date(`${window.to}T00:00:00.000Z`), today: addDays(window.to, 1) };
  const inScope = (a: BudgetAlert) => report.groupId === null || a.groupId === report.groupId;
  return ctx.alerts
    .list(orgId)
    .filter(inScope)
    .map((alert) => {
      const spend = ctx.costs.periodSpend(orgId, alert, alert.period, at);
      const budget = budgetAmount(ctx.costs, orgId, alert, spend.periodStart);
      const crossed = alert.thresholds
        .filter((t) => (t.basis === "actual" ? spend.currentSpend : spend.forecastedSpend) >= thresholdLevel(t, budget.amount))
        .map((t) => `${t.percent !== undefined ? `${t.percent}%` : amount(t.amount ?? 0)} ${t.basis}`);
      return [
        alert.name,
        alert.id,
        spend.periodStart,
        spend.periodEnd,
        alert.currency,
        amount(budget.amount),
        budget.source,
        amount(spend.currentSpend),
        amount(spend.forecastedSpend),
        percentText(spend.currentSpend, budget.amount),
        crossed.join("; "),
      ];
    });
}

/** Reads the report's cost data for `window` and lays it out (one layout per report kind, mirroring the `/cost/*` reads). */
export function reportTable(ctx: SandboxContext, orgId: string, report: ScheduledReport, window: DateWindow): ReportTable {
  const costs = ctx.costs;
  const q = window;
  const target = { groupId: report.groupId, filters: report.filters };
  const table = (columns: string[], rows: string[][], currency: string): ReportTable => ({
    title: report.name,
    caption: `${report.report} report, ${window.from} to ${window.to}, ${report.groupId === null ? "whole organization" : `Cloud Group ${report.groupId}`}, amounts in ${currency}`,
    columns,
    rows,
  });
  switch (report.report) {
    case "summary": {
      const s = costs.summary(orgId, q, target);
      const rows = s.byProvider.map((p) => [p.provider, amount(p.amount)]);
      return table(["provider", "amount"], [...rows, ["total", amount(s.total)]], s.currency);
    }
    case "services": {
      const s = costs.byService(orgId, q, target);
      return table(
        ["service", "provider", "amount"],
        s.items.map((i) => [i.service, i.provider, amount(i.amount)]),
        s.currency,
      );
    }
    case "daily": {
      const d = costs.byDay(orgId, q, target);
      const rows = d.days.map((day) => [day.date, amount(day.amount), ...day.byProvider.map((p) => amount(p.amount))]);
      return table(["date", "amount", "aws", "azure"], rows, d.currency);
    }
    case "forecast": {
      const f = costs.forecast(orgId, q, target);
      return table(
        ["date", "kind", "amount", "lower", "upper"],
        f.days.map((d) => [d.date, d.kind, amount(d.amount), amount(d.lower), amount(d.upper)]),
        f.currency,
      );
    }
    case "comparison": {
      const c = costs.comparison(orgId, q, target);
      const rows = c.byProvider.map((p) => [p.provider, amount(p.current), amount(p.previous), amount(p.change)]);
      return table(
        ["provider", "current", "previous", "change"],
        [...rows, ["total", amount(c.current.amount), amount(c.previous.amount), amount(c.change)]],
        c.currency,
      );
    }
    case "budget_status":
      return table(
        [
          "alert",
          "alert_id",
          "period_start",
          "period_end",
          "currency",
          "amount",
          "amount_source",
          "actual",
          "forecast",
          "percent_used",
          "thresholds_crossed",
        ],
        budgetStatusRows(ctx, orgId, report, window),
        ctx.orgs.byId(orgId)?.currency ?? "",
      );
  }
}
