import type { CostQuery, DateWindow, ScheduledReport } from "@cloudcost/api";
import type { Costs } from "../costs/cost-reads";

/** A report's content as a table: what the CSV and the PDF both show. */
export interface ReportTable {
  title: string;
  /** One line under the title: window, scope and currency. */
  caption: string;
  columns: string[];
  rows: string[][];
}

const amount = (n: number): string => n.toFixed(2);

/** Reads the report's cost data for `window` and lays it out (one layout per report kind, mirroring the `/cost/*` reads). */
export function reportTable(costs: Costs, orgId: string, report: ScheduledReport, window: DateWindow): ReportTable {
  const q: CostQuery = { from: window.from, to: window.to, groupId: report.groupId ?? undefined };
  const table = (columns: string[], rows: string[][], currency: string): ReportTable => ({
    title: report.name,
    caption: `${report.report} report, ${window.from} to ${window.to}, ${report.groupId === null ? "whole organization" : `Cloud Group ${report.groupId}`}, amounts in ${currency}`,
    columns,
    rows,
  });
  switch (report.report) {
    case "summary": {
      const s = costs.summary(orgId, q);
      const rows = s.byProvider.map((p) => [p.provider, amount(p.amount)]);
      return table(["provider", "amount"], [...rows, ["total", amount(s.total)]], s.currency);
    }
    case "services": {
      const s = costs.byService(orgId, q);
      return table(
        ["service", "provider", "amount"],
        s.items.map((i) => [i.service, i.provider, amount(i.amount)]),
        s.currency,
      );
    }
    case "daily": {
      const d = costs.byDay(orgId, q);
      const rows = d.days.map((day) => [day.date, amount(day.amount), ...day.byProvider.map((p) => amount(p.amount))]);
      return table(["date", "amount", "aws", "azure"], rows, d.currency);
    }
    case "forecast": {
      const f = costs.forecast(orgId, q);
      return table(
        ["date", "kind", "amount", "lower", "upper"],
        f.days.map((d) => [d.date, d.kind, amount(d.amount), amount(d.lower), amount(d.upper)]),
        f.currency,
      );
    }
    case "comparison": {
      const c = costs.comparison(orgId, q);
      const rows = c.byProvider.map((p) => [p.provider, amount(p.current), amount(p.previous), amount(p.change)]);
      return table(
        ["provider", "current", "previous", "change"],
        [...rows, ["total", amount(c.current.amount), amount(c.previous.amount), amount(c.change)]],
        c.currency,
      );
    }
  }
}
