import type { Acknowledgement, Finding, FindingKind, Page, PageQuery } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import type { Organizations } from "./organizations";
import { cursorPosition, toPage } from "./paging";
import { notFound } from "../errors";
import type { FindingDraft } from "./finding-catalog";
import { sql } from "./statements";

/** Finding IDs are numeric-looking (spec `<insight_id>`): the row number offset so they read as IDs, not counters. */
const ID_BASE = 100_000;

interface FindingRow {
  seq: number;
  kind: FindingKind;
  title: string;
  description: string;
  severity: Finding["severity"];
  provider: Finding["provider"];
  account_id: string;
  service: string;
  savings_cents: number | null;
  detected_at: string;
  acknowledged_at: string | null;
}

const findingId = (seq: number): string => String(ID_BASE + seq);

/** Insights, waste and recommendations; acknowledging one takes it off the open list for good. */
export class Findings {
  constructor(
    private readonly db: Db,
    private readonly orgs: Organizations,
  ) {}

  add(orgId: string, drafts: readonly FindingDraft[]): void {
    const insert = sql(
      this.db,
      "INSERT INTO findings (org_id, kind, title, description, severity, provider, account_id, service, savings_cents, detected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const now = new Date().toISOString();
    for (const d of drafts)
      insert.run(orgId, d.kind, d.title, d.description, d.severity, d.provider, d.accountId, d.service, d.savingsCents, now);
  }

  /** Open findings of one kind, oldest first. */
  pageOpen(orgId: string, kind: FindingKind, q: PageQuery): Page<Finding> {
    const scope = { db: this.db, list: `findings-${kind}`, orgId };
    const rows = sql(
      this.db,
      "SELECT * FROM findings WHERE org_id = ? AND kind = ? AND acknowledged_at IS NULL AND seq > ? ORDER BY seq LIMIT ?",
    ).all(orgId, kind, cursorPosition(scope, q), q.limit + 1) as FindingRow[];
    const currency = this.currency(orgId);
    return toPage(scope, rows, q.limit, (r) => view(r, currency));
  }

  openCount(orgId: string): number {
    return (sql(this.db, "SELECT COUNT(*) AS n FROM findings WHERE org_id = ? AND acknowledged_at IS NULL").get(orgId) as { n: number }).n;
  }

  /** Idempotent: acknowledging again returns the first acknowledgement unchanged (contract: `Acknowledgement`). */
  acknowledge(orgId: string, kind: FindingKind, id: string): Acknowledgement {
    const seq = Number(id) - ID_BASE;
    const row = sql(this.db, "SELECT * FROM findings WHERE seq = ? AND org_id = ? AND kind = ?").get(seq, orgId, kind) as
      FindingRow | undefined;
    if (!row) throw notFound(`No ${kind} ${id} in this organization.`);
    const acknowledgedAt = row.acknowledged_at ?? new Date().toISOString();
    if (row.acknowledged_at === null) sql(this.db, "UPDATE findings SET acknowledged_at = ? WHERE seq = ?").run(acknowledgedAt, seq);
    // The canonical ID, not the path's spelling of it: `0100042` names finding 100042 too.
    return { id: findingId(row.seq), kind, status: "acknowledged", acknowledgedAt };
  }

  private currency(orgId: string): string {
    return this.orgs.byId(orgId)?.currency ?? "USD";
  }
}

function view(r: FindingRow, currency: string): Finding {
  return {
    id: findingId(r.seq),
    kind: r.kind,
    title: r.title,
    description: r.description,
    severity: r.severity,
    provider: r.provider,
    accountId: r.account_id,
    service: r.service,
    estimatedMonthlySavings: r.savings_cents === null ? null : r.savings_cents / 100,
    currency,
    status: r.acknowledged_at === null ? "open" : "acknowledged",
    detectedAt: r.detected_at,
    acknowledgedAt: r.acknowledged_at,
  };
}
