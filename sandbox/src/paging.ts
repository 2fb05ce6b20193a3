import type { Page, PageQuery } from "@cloudcost/api";
import { invalidRequest } from "./service-error";

/**
 * Cursors are opaque to clients (contract: paging decision) but carry the list they belong to and the
 * position (a row's creation sequence number), so a cursor of another list or a forged one is a 400.
 */
function encodeCursor(list: string, seq: number): string {
  return Buffer.from(`${list}:${seq}`, "utf8").toString("base64url");
}

function decodeCursor(list: string, cursor: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const m = /^([a-z_-]+):(\d{1,15})$/.exec(text);
  if (!m || m[1] !== list) throw invalidRequest("The cursor is not valid for this list.", [{ path: "query.cursor", code: "invalid_cursor", message: "is not a cursor returned by this list" }]);
  return Number(m[2]);
}

/** A row position in a list: its creation sequence number. */
interface Sequenced {
  seq: number;
}

/**
 * Turns `limit + 1` rows read after the cursor into a page: the extra row only tells whether a next
 * page exists, so no second query is needed.
 */
export function toPage<R extends Sequenced, T>(list: string, rows: readonly R[], limit: number, view: (row: R) => T): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { items: shown.map(view), nextCursor: rows.length > limit && last ? encodeCursor(list, last.seq) : null };
}

/** The position to read after: 0 (or "infinity" for newest-first lists) without a cursor. */
export function cursorPosition(list: string, q: PageQuery, newestFirst = false): number {
  if (q.cursor === undefined) return newestFirst ? Number.MAX_SAFE_INTEGER : 0;
  return decodeCursor(list, q.cursor);
}
