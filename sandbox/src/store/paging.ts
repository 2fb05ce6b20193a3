import type { Page, PageQuery } from "@cloudcost/api/contract";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "./connection";
import { invalidRequest } from "../errors";
import { sql } from "./statements";

/** Which list a cursor belongs to: its name (`groups`, `findings-waste`, …) and the organization reading it. */
export interface ListScope {
  db: Db;
  list: string;
  orgId: string;
}

const keys = new WeakMap<Db, Buffer>();

/**
 * The data folder's cursor key: 32 random bytes made once and kept in `sandbox_meta`, so cursors stay
 * valid across restarts and between `serve` processes on the same folder, and mean nothing anywhere else.
 */
function cursorKey(db: Db): Buffer {
  let key = keys.get(db);
  if (!key) {
    sql(db, "INSERT OR IGNORE INTO sandbox_meta (key, value) VALUES ('cursor_key', ?)").run(randomBytes(32).toString("base64url"));
    const row = sql(db, "SELECT value FROM sandbox_meta WHERE key = 'cursor_key'").get() as { value: string };
    keys.set(db, (key = Buffer.from(row.value, "base64url")));
  }
  return key;
}

/** HMAC-SHA-256 over the list, the organization and the position, truncated to 128 bits. */
function tag(scope: ListScope, position: string): Buffer {
  return createHmac("sha256", cursorKey(scope.db)).update(`${scope.list}\n${scope.orgId}\n${position}`).digest().subarray(0, 16);
}

/**
 * Cursors are opaque to clients (contract: paging decision): `<position>.<tag>`, the position being where
 * the page ended (a row's creation sequence number, or a time and an ID: {@link toTimePage}) and the tag
 * an HMAC binding it to the list and the organization. A cursor of another list or organization, or a
 * forged or altered one, is a 400.
 */
function encodeCursor(scope: ListScope, position: string): string {
  return `${position}.${tag(scope, position).toString("base64url")}`;
}

const invalidCursor = () =>
  invalidRequest("The cursor is not valid for this list.", [
    { path: "query.cursor", code: "invalid_cursor", message: "is not a cursor returned by this list" },
  ]);

/** The position a cursor names, once its tag is checked; `shape` is what positions of this list look like. */
function decodeCursor(scope: ListScope, cursor: string, shape: RegExp): string {
  const m = /^([0-9a-z_~]{1,80})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  const presented = m ? Buffer.from(m[2]!, "base64url") : undefined;
  if (!m || !presented || presented.length !== 16 || !timingSafeEqual(presented, tag(scope, m[1]!)) || !shape.test(m[1]!))
    throw invalidCursor();
  return m[1]!;
}

/** A row position in a list: its creation sequence number. */
interface Sequenced {
  seq: number;
}

/**
 * Turns `limit + 1` rows read after the cursor into a page: the extra row only tells whether a next
 * page exists, so no second query is needed.
 */
export function toPage<R extends Sequenced, T>(scope: ListScope, rows: readonly R[], limit: number, view: (row: R) => T): Page<T> {
  return pageOf(scope, rows, limit, view, (row) => row.seq.toString(36));
}

function pageOf<R, T>(scope: ListScope, rows: readonly R[], limit: number, view: (row: R) => T, position: (row: R) => string): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { items: shown.map(view), nextCursor: rows.length > limit && last ? encodeCursor(scope, position(last)) : null };
}

/** The position to read after: 0 (or "infinity" for newest-first lists) without a cursor. */
export function cursorPosition(scope: ListScope, q: PageQuery, newestFirst = false): number {
  if (q.cursor === undefined) return newestFirst ? Number.MAX_SAFE_INTEGER : 0;
  return parseInt(decodeCursor(scope, q.cursor, /^[0-9a-z]{1,11}$/), 36);
}

/** A row of a list in time order: when it happened (an ISO 8601 UTC time) and its ID, which breaks ties. */
export interface Timed {
  created_at: string;
  id: string;
}

/**
 * Where a newest-first list in time order goes on after the cursor: the time and ID of the last row shown
 * (the rows to read come strictly before it in `created_at DESC, id DESC` order); none without a cursor.
 * A time and an ID rather than an insertion sequence, so a page boundary stays put whatever order the rows
 * were written in.
 */
export function timePosition(scope: ListScope, q: PageQuery): Timed | undefined {
  if (q.cursor === undefined) return undefined;
  const [ms, id] = decodeCursor(scope, q.cursor, /^[0-9a-z]{1,11}~[0-9a-z_]{1,64}$/).split("~") as [string, string];
  return { created_at: new Date(parseInt(ms, 36)).toISOString(), id };
}

/** {@link toPage} for a list in time order: its cursor names the last row's time and ID ({@link timePosition}). */
export function toTimePage<R extends Timed, T>(scope: ListScope, rows: readonly R[], limit: number, view: (row: R) => T): Page<T> {
  return pageOf(scope, rows, limit, view, (row) => `${Date.parse(row.created_at).toString(36)}~${row.id}`);
}

/**
 * One page of `scope.orgId`'s rows of `table` in creation order, after the cursor (`scope.list` names the
 * list the cursor belongs to). `table` is one of the store's own table names, never request data.
 */
export function pageOfTable<R extends Sequenced, T>(scope: ListScope, table: string, q: PageQuery, view: (row: R) => T): Page<T> {
  const rows = sql(scope.db, `SELECT * FROM ${table} WHERE org_id = ? AND seq > ? ORDER BY seq LIMIT ?`).all(
    scope.orgId,
    cursorPosition(scope, q),
    q.limit + 1,
  ) as R[];
  return toPage(scope, rows, q.limit, view);
}

/** The same, newest first (logs: scan runs, captured messages). */
export function newestPageOfTable<R extends Sequenced, T>(scope: ListScope, table: string, q: PageQuery, view: (row: R) => T): Page<T> {
  const rows = sql(scope.db, `SELECT * FROM ${table} WHERE org_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`).all(
    scope.orgId,
    cursorPosition(scope, q, true),
    q.limit + 1,
  ) as R[];
  return toPage(scope, rows, q.limit, view);
}
