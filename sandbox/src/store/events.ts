import { Event, thresholdLevel, type EventQuery, type Page } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { notFound } from "../errors";
import { timePosition, toTimePage } from "./paging";
import { sql } from "./statements";
import { isRecord } from "../validation";

interface Row {
  id: string;
  created_at: string;
  body: string;
}

/** What caused an event, once: the alert, period and threshold, or the report and its run time. */
export type DedupeKey = string;

/**
 * The events of every organization, newest first by the time they happened on the organization's clock
 * (ties by ID), not by when they were written. The stored body is the exact JSON `GET /events/{id}` and
 * every webhook send.
 */
export class Events {
  constructor(private readonly db: Db) {}

  /**
   * Records `event` unless an event with the same `dedupeKey` exists (UNIQUE + INSERT OR IGNORE, so two
   * processes or a restart cannot record it twice). True when this call recorded it.
   */
  insertOnce(orgId: string, dedupeKey: DedupeKey, event: Event): boolean {
    // Stored as the contract's schema outputs it (its key order), so the webhook body and every later
    // `GET /events/{id}` (which parses and serializes again) are the same bytes.
    const body = JSON.stringify(Event.parse(event));
    const result = sql(
      this.db,
      "INSERT OR IGNORE INTO events (id, org_id, type, dedupe_key, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(event.id, orgId, event.type, dedupeKey, body, event.createdAt);
    return result.changes === 1;
  }

  page(orgId: string, q: EventQuery): Page<Event> {
    // The cursor is bound to the filter too: a cursor of the unfiltered list is not one of a filtered list.
    const scope = { db: this.db, list: q.type === undefined ? "events" : `events:${q.type}`, orgId };
    // Past the cursor: strictly before the last row shown in (created_at, id) order; without one, from the newest.
    const after = timePosition(scope, q) ?? { created_at: "~", id: "" };
    const type = q.type === undefined ? "" : "AND type = ?";
    const rows = sql(
      this.db,
      `SELECT id, created_at, body FROM events WHERE org_id = ? ${type} AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(...[orgId, ...(q.type === undefined ? [] : [q.type]), after.created_at, after.id, q.limit + 1]) as Row[];
    return toTimePage(scope, rows, q.limit, parse);
  }

  /** The event's JSON exactly as stored (the webhook body); 404 for another organization's event. */
  body(orgId: string, eventId: string): string {
    const row = sql(this.db, "SELECT id, created_at, body FROM events WHERE id = ? AND org_id = ?").get(eventId, orgId) as Row | undefined;
    if (!row) throw notFound(`No event ${eventId} in this organization.`);
    return row.body;
  }

  require(orgId: string, eventId: string): Event {
    return Event.parse(upgraded(JSON.parse(this.body(orgId, eventId))));
  }
}

const parse = (row: Row): Event => Event.parse(upgraded(JSON.parse(row.body)));

/**
 * A stored event brought up to the contract. A threshold event recorded before issue 27 lacks
 * `amountSource` and `thresholdAmount`; then every alert had a plain amount and percent thresholds, so
 * both follow from what it carries. (Its webhook body, as sent and redelivered, stays the stored bytes.)
 */
function upgraded(json: unknown): unknown {
  if (!isRecord(json) || json.type !== "budget_alert.threshold_crossed" || !isRecord(json.data) || "amountSource" in json.data) return json;
  const { amount, threshold } = json.data;
  const percent = isRecord(threshold) ? threshold.percent : undefined;
  if (typeof amount !== "number" || typeof percent !== "number") return json;
  return { ...json, data: { ...json.data, amountSource: "amount", thresholdAmount: thresholdLevel({ percent }, amount) } };
}
