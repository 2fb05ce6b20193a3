import type { Db } from "./connection";
import { sql } from "./statements";

interface Row {
  anchor_ms: number;
  last_run_at: string | null;
}

/**
 * Where each scheduled report stands on its organization's clock: `anchor` is the time up to which its
 * runs are done (the next run is the first one after it), `lastRunAt` the last delivery.
 */
export class ReportRuns {
  constructor(private readonly db: Db) {}

  /** The report's anchor, set to `initialMs` the first time the engine sees the report. */
  anchor(reportId: string, initialMs: number): number {
    // Read first: a write (and its lock) only the first time.
    const known = this.read(reportId);
    if (known) return known.anchor_ms;
    sql(this.db, "INSERT OR IGNORE INTO report_runs (report_id, anchor_ms) VALUES (?, ?)").run(reportId, initialMs);
    return (this.read(reportId) as Row).anchor_ms;
  }

  /** Moves the anchor forward (never back: another process may have moved it further). */
  advance(reportId: string, toMs: number): void {
    const known = this.read(reportId);
    if (known && known.anchor_ms >= toMs) return;
    sql(this.db, "UPDATE report_runs SET anchor_ms = ? WHERE report_id = ? AND anchor_ms < ?").run(toMs, reportId, toMs);
  }

  /** Records a delivery made for the run at `runAt`. */
  ran(reportId: string, runAt: Date): void {
    sql(this.db, "UPDATE report_runs SET last_run_at = ? WHERE report_id = ? AND (last_run_at IS NULL OR last_run_at < ?)").run(
      runAt.toISOString(),
      reportId,
      runAt.toISOString(),
    );
  }

  lastRunAt(reportId: string): string | null {
    return this.read(reportId)?.last_run_at ?? null;
  }

  private read(reportId: string): Row | undefined {
    return sql(this.db, "SELECT anchor_ms, last_run_at FROM report_runs WHERE report_id = ?").get(reportId) as Row | undefined;
  }
}
