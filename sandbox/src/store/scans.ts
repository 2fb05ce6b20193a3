import type { Page, PageQuery, ScanRun, ScanState } from "@cloudcost/api/contract";
import { unitHash } from "../costs/hash";
import { writeTransaction, type Db } from "./connection";
import { newId } from "./ids";
import { newestPageOfTable } from "./paging";
import { notFound } from "../errors";
import type { Accounts } from "./accounts";
import { draftFinding } from "./finding-catalog";
import type { Findings } from "./findings";
import { sql } from "./statements";

interface RunRow {
  seq: number;
  id: string;
  org_id: string;
  state: ScanState;
  step_ms: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  result: string | null;
  error: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const view = (r: RunRow): ScanRun => ({
  runId: r.id,
  state: r.state,
  createdAt: new Date(r.created_at).toISOString(),
  startedAt: iso(r.started_at),
  finishedAt: iso(r.finished_at),
  result: r.result === null ? null : (JSON.parse(r.result) as ScanRun["result"]),
  error: r.error === null ? null : (JSON.parse(r.error) as ScanRun["error"]),
});

/** Default step of a scan run (queued, then running): `serve --scan-step-ms`. */
export const DEFAULT_SCAN_STEP_MS = 1000;

/**
 * Scan runs. A run is queued for one step, running for the next, then final. Transitions are derived
 * from the persisted creation time and step length, so a restart loses nothing: reads apply every due
 * transition first, and a timer (`resume`) applies them when nobody reads.
 */
export class Scans {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly findings: Findings,
    private readonly stepMs: number,
  ) {}

  start(orgId: string): ScanRun {
    const id = newId("run");
    sql(this.db, "INSERT INTO scan_runs (id, org_id, state, step_ms, created_at) VALUES (?, ?, 'queued', ?, ?)").run(
      id,
      orgId,
      this.stepMs,
      Date.now(),
    );
    if (this.timer !== undefined) this.schedule();
    return this.require(orgId, id);
  }

  require(orgId: string, id: string): ScanRun {
    this.advance();
    const r = sql(this.db, "SELECT * FROM scan_runs WHERE id = ? AND org_id = ?").get(id, orgId) as RunRow | undefined;
    if (!r) throw notFound(`No scan run ${id} in this organization.`);
    return view(r);
  }

  /** Recent runs, newest first. */
  page(orgId: string, q: PageQuery): Page<ScanRun> {
    this.advance();
    return newestPageOfTable<RunRow, ScanRun>({ db: this.db, list: "scans", orgId }, "scan_runs", q, view);
  }

  /**
   * Applies every transition that is due; each run's change commits on its own. Another process on the
   * same data folder may advance the same run between the read and the change, so each change first
   * checks that the run is still in the state it was read in (a run must never add its findings twice).
   */
  advance(now: number = Date.now()): void {
    const pending = sql(this.db, "SELECT * FROM scan_runs WHERE state IN ('queued', 'running') ORDER BY seq").all() as RunRow[];
    for (const r of pending) {
      if (now >= r.created_at + 2 * r.step_ms) writeTransaction(this.db, () => this.finishIfPending(r));
      else if (r.state === "queued" && now >= r.created_at + r.step_ms)
        sql(this.db, "UPDATE scan_runs SET state = 'running', started_at = ? WHERE seq = ? AND state = 'queued'").run(
          r.created_at + r.step_ms,
          r.seq,
        );
    }
  }

  private finishIfPending(r: RunRow): void {
    const still = sql(this.db, "SELECT 1 FROM scan_runs WHERE seq = ? AND state IN ('queued', 'running')").get(r.seq);
    if (still !== undefined) this.finish(r);
  }

  /** Starts the timer that advances runs nobody polls; it picks up runs persisted before a restart. */
  resume(): void {
    this.advance();
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const next = sql(
      this.db,
      "SELECT MIN(CASE state WHEN 'queued' THEN created_at + step_ms ELSE created_at + 2 * step_ms END) AS due FROM scan_runs WHERE state IN ('queued', 'running')",
    ).get() as { due: number | null };
    const delay = next.due === null ? 60_000 : Math.max(0, next.due - Date.now());
    this.timer = setTimeout(() => {
      this.advance();
      this.schedule();
    }, delay);
    this.timer.unref();
  }

  /** A run over an organization without connected accounts fails; otherwise it adds 0–2 findings, chosen from the run ID. */
  private finish(r: RunRow): void {
    const startedAt = r.created_at + r.step_ms;
    const finishedAt = r.created_at + 2 * r.step_ms;
    const accounts = this.accounts.list(r.org_id);
    if (accounts.length === 0) {
      const error = { code: "no_accounts", message: "The organization has no connected cloud accounts to scan." };
      sql(this.db, "UPDATE scan_runs SET state = 'failed', started_at = ?, finished_at = ?, error = ? WHERE seq = ?").run(
        startedAt,
        finishedAt,
        JSON.stringify(error),
        r.seq,
      );
      return;
    }
    const count = Math.floor(unitHash(r.id, "count") * 3);
    const drafts = Array.from({ length: count }, (_, i) => {
      const account = accounts[Math.floor(unitHash(r.id, "account", String(i)) * accounts.length)] ?? accounts[0]!;
      const kind = (["insight", "waste", "recommendation"] as const)[Math.floor(unitHash(r.id, "kind", String(i)) * 3)] ?? "insight";
      return draftFinding(kind, account, r.id, String(i));
    });
    this.findings.add(r.org_id, drafts);
    const result = { accountsScanned: accounts.length, findingsFound: this.findings.openCount(r.org_id), newFindings: drafts.length };
    sql(this.db, "UPDATE scan_runs SET state = 'succeeded', started_at = ?, finished_at = ?, result = ? WHERE seq = ?").run(
      startedAt,
      finishedAt,
      JSON.stringify(result),
      r.seq,
    );
  }
}
