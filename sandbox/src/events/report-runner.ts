import type { ScheduledReport } from "@cloudcost/api";
import type { SandboxContext } from "../service/context";
import { retryBusy } from "../store/connection";
import { newId } from "../store/ids";
import { nextRunAt } from "../store/next-run";
import { recordEvent } from "./event-recorder";
import { reportAttachment } from "./report-file";
import { reportTable } from "./report-table";
import { reportWindow } from "./report-window";

/** Runs of one report one evaluation makes at most (a clock step is at most 366 days: a daily report fits). */
const MAX_RUNS_PER_EVALUATION = 400;

/** One run: the cost data of its window as CSV or PDF, one message per recipient, a `scheduled_report.delivered` event. */
async function run(ctx: SandboxContext, orgId: string, report: ScheduledReport, runAt: Date): Promise<boolean> {
  const window = reportWindow(report.schedule, runAt);
  const attachment = await reportAttachment(report, reportTable(ctx.costs, orgId, report, window), window.from, window.to);
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
      },
    },
    emails: report.recipients.map((to) => ({ to, subject, text, attachments: [attachment] })),
    webhookUrl: null,
    always: () => {
      ctx.reportRuns.advance(report.id, runAt.getTime());
      ctx.reportRuns.ran(report.id, runAt);
    },
  });
}

/**
 * Runs every scheduled run of the organization's reports due up to `to` on its clock. A report first
 * seen here starts at `anchorFor(report)`; a disabled report skips its runs (its anchor moves on).
 * Returns how many runs were delivered.
 */
export async function runDueReports(
  ctx: SandboxContext,
  orgId: string,
  to: Date,
  anchorFor: (r: ScheduledReport) => number,
): Promise<number> {
  let delivered = 0;
  for (const report of ctx.reports.list(orgId)) {
    let anchor = retryBusy(() => ctx.reportRuns.anchor(report.id, anchorFor(report)));
    if (!report.enabled) {
      retryBusy(() => ctx.reportRuns.advance(report.id, to.getTime()));
      continue;
    }
    for (let runs = 0; runs < MAX_RUNS_PER_EVALUATION; runs++) {
      const next = new Date(nextRunAt(report.schedule, new Date(anchor)));
      if (next.getTime() > to.getTime()) break;
      if (await run(ctx, orgId, report, next)) delivered++;
      anchor = next.getTime();
    }
  }
  return delivered;
}
