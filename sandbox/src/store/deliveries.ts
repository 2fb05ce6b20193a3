import type { Delivery, DeliveryAttempt, DeliveryChannel, DeliveryStatus } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { sql } from "./statements";

/** Attempts of a webhook delivery in all: the first and four retries (issue 15). */
export const WEBHOOK_ATTEMPTS = 5;

interface Row {
  seq: number;
  event_id: string;
  org_id: string;
  channel: DeliveryChannel;
  target: string;
  status: DeliveryStatus;
  attempts: string;
  max_attempts: number;
}

/** A delivery the worker may send now. */
export interface DueDelivery {
  seq: number;
  eventId: string;
  orgId: string;
  channel: DeliveryChannel;
  target: string;
  attempts: DeliveryAttempt[];
  maxAttempts: number;
}

const view = (r: Row): Delivery => ({
  channel: r.channel,
  target: r.target,
  status: r.status,
  attempts: JSON.parse(r.attempts) as DeliveryAttempt[],
});

/**
 * The durable delivery log: one row per channel target of an event, with every attempt. Pending rows
 * carry the wall-clock time of their next attempt, so a restarted `serve` resumes them; a row is claimed
 * for the length of one attempt, so two processes on one folder never send the same attempt twice.
 */
export class Deliveries {
  constructor(private readonly db: Db) {}

  /** A new delivery: pending with its first attempt due at `dueMs`, or already settled (a captured e-mail). */
  add(
    orgId: string,
    eventId: string,
    channel: DeliveryChannel,
    target: string,
    state: { dueMs: number; maxAttempts: number } | { settled: DeliveryAttempt },
  ): void {
    const settled = "settled" in state;
    sql(
      this.db,
      `INSERT OR IGNORE INTO deliveries (event_id, org_id, channel, target, status, attempts, max_attempts, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      eventId,
      orgId,
      channel,
      target,
      settled ? "succeeded" : "pending",
      JSON.stringify(settled ? [state.settled] : []),
      settled ? 1 : state.maxAttempts,
      settled ? null : state.dueMs,
    );
  }

  list(eventId: string): Delivery[] {
    return (sql(this.db, "SELECT * FROM deliveries WHERE event_id = ? ORDER BY seq").all(eventId) as Row[]).map(view);
  }

  webhook(eventId: string): Delivery | undefined {
    const row = sql(this.db, "SELECT * FROM deliveries WHERE event_id = ? AND channel = 'webhook' ORDER BY seq LIMIT 1").get(eventId) as
      Row | undefined;
    return row ? view(row) : undefined;
  }

  /** One more attempt of the event's webhook, due now (redelivery): the delivery is pending again. */
  redeliver(eventId: string, nowMs: number): boolean {
    const result = sql(
      this.db,
      `UPDATE deliveries SET status = 'pending', max_attempts = json_array_length(attempts) + 1, next_attempt_at = ?, claimed_until = NULL
       WHERE event_id = ? AND channel = 'webhook'`,
    ).run(nowMs, eventId);
    return result.changes > 0;
  }

  /** The earliest time a pending delivery is due, if any. */
  nextDueMs(): number | undefined {
    const row = sql(this.db, "SELECT MIN(next_attempt_at) AS due FROM deliveries WHERE status = 'pending'").get() as { due: number | null };
    return row.due ?? undefined;
  }

  /**
   * Claims up to `limit` deliveries due at `nowMs` for `leaseMs` (a crashed claimer's lease runs out and
   * another process takes the delivery over). Run inside a write transaction.
   */
  claimDue(nowMs: number, leaseMs: number, limit: number): DueDelivery[] {
    const rows = sql(
      this.db,
      `SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
       ORDER BY next_attempt_at LIMIT ?`,
    ).all(nowMs, nowMs, limit) as Row[];
    const claim = sql(this.db, "UPDATE deliveries SET claimed_until = ? WHERE seq = ?");
    for (const r of rows) claim.run(nowMs + leaseMs, r.seq);
    return rows.map((r) => ({
      seq: r.seq,
      eventId: r.event_id,
      orgId: r.org_id,
      channel: r.channel,
      target: r.target,
      attempts: JSON.parse(r.attempts) as DeliveryAttempt[],
      maxAttempts: r.max_attempts,
    }));
  }

  /**
   * Records an attempt: succeeded, failed for good (no attempts left), or pending again with the next
   * attempt due at `retryAtMs`.
   */
  record(seq: number, attempt: DeliveryAttempt, ok: boolean, retryAtMs: number | undefined): void {
    const row = sql(this.db, "SELECT attempts, max_attempts FROM deliveries WHERE seq = ?").get(seq) as
      { attempts: string; max_attempts: number } | undefined;
    if (!row) return;
    const attempts = [...(JSON.parse(row.attempts) as DeliveryAttempt[]), attempt];
    const status: DeliveryStatus = ok ? "succeeded" : attempts.length >= row.max_attempts || retryAtMs === undefined ? "failed" : "pending";
    sql(this.db, "UPDATE deliveries SET attempts = ?, status = ?, next_attempt_at = ?, claimed_until = NULL WHERE seq = ?").run(
      JSON.stringify(attempts),
      status,
      status === "pending" ? (retryAtMs ?? null) : null,
      seq,
    );
  }
}
