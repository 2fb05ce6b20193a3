import type { ScheduledReport } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import { retryBusy } from "../store/connection";
import { newId } from "../store/ids";
import { nextRunAt } from "../store/next-run";
import { recordEvent } from "./event-recorder";
import { reportAttachment } from "./report-file";
import { reportTable } from "./report-table";
import { reportWindow } from "./report-window";
import type { Due } from "./timeline";

/** Runs of one report one evaluation makes at most (a clock step is at most 366 days: a daily report fits). */
const MAX_RUNS_PER_EVALUATION = 400;

/** One run: the cost data of its window as CSV or PDF, one message per recipient, a `scheduled_report.delivered` event. */
async function run(ctx: SandboxContext, orgId: string, report: ScheduledReport, runAt: Date): Promise<boolean> {
  const window = reportWindow(report.schedule, runAt);
  const table = reportTable(ctx, orgId, report, window);
  const attachment = await reportAttachment(report, table, window.from, window.to);
  const subject = `Scheduled report "${report.name}": ${window.from} to ${window.to}`;
  const text = `Your ${report.schedule.frequency} ${report.report} report "${report.name}" for ${window.from} to ${window.to} is attached (${attachment.filename}).`;
  return recordEvent(ctx, {
    orgId,
    // One delivery per (report, scheduled run): two processes or a restart cannot deliver a run twice.
    dedupeKey: `report:${report.id}:${runAt.toISOString()}`,
    event: {
      id: newId("evt"),
      type: "scheduled_report.delivered",
      createdAt: runAt.toISOString(),
      data: {
        reportId: report.id,
        reportName: report.name,
        report: report.report,
        format: report.format,
        from: window.from,
        to: window.to,
        recipients: report.recipients,
        // The rows themselves, so a report with a `webhookUrl` is a signed spend feed (issue 27).
        columns: table.columns,
        rows: table.rows,
      },
    },
    emails: report.recipients.map((to) => ({ to, subject, text, attachments: [attachment] })),
    webhookUrl: report.webhookUrl,
    always: () => {
      ctx.reportRuns.advance(report.id, runAt.getTime());
      ctx.reportRuns.ran(report.id, runAt);
    },
  });
}

/** The scheduled times of `report` after `anchor` up to `to`, at most {@link MAX_RUNS_PER_EVALUATION}. */
function runTimes(report: ScheduledReport, anchor: number, to: Date): Date[] {
  const times: Date[] = [];
  for (let at = anchor; times.length < MAX_RUNS_PER_EVALUATION;) {
    const next = new Date(nextRunAt(report.schedule, new Date(at)));
    if (next.getTime() > to.getTime()) break;
    times.push(next);
    at = next.getTime();
  }
  return times;
}

/**
 * The runs of the organization's reports due up to `to` on its clock. A report first seen here starts at
 * `anchorFor(report)`; a disabled report skips its runs (its anchor moves on now). Each run resolves with
 * 1 when it delivered, 0 when another process or an earlier evaluation already had.
 */
export function dueReportRuns(ctx: SandboxContext, orgId: string, to: Date, anchorFor: (r: ScheduledReport) => number): Due[] {
  return ctx.reports.list(orgId).flatMap((report): Due[] => {
    const anchor = retryBusy(() => ctx.reportRuns.anchor(report.id, anchorFor(report)));
    if (!report.enabled) {
      retryBusy(() => ctx.reportRuns.advance(report.id, to.getTime()));
      return [];
    }
    return runTimes(report, anchor, to).map((at) => ({
      at,
      counts: "reportRuns" as const,
      run: async () => ((await run(ctx, orgId, report, at)) ? 1 : 0),
    }));
  });
}
