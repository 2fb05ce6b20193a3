import type { Statement } from "better-sqlite3";
import type { Db } from "./connection";

const caches = new WeakMap<Db, Map<string, Statement>>();

/** A prepared statement for `text`, prepared once per database connection (preparing costs more than most queries here). */
export function sql(db: Db, text: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let statement = cache.get(text);
  if (!statement) cache.set(text, (statement = db.prepare(text)));
  return statement;
}

/**
 * Sets `columns` of row `id` of `table` and stamps its `updated_at` with the current time: every change of a
 * resource moves its `updatedAt` (and so its ETag). Table and column names come from the store's code only.
 */
export function updateRow(db: Db, table: string, id: string, columns: Record<string, string | number | null> = {}): void {
  const names = [...Object.keys(columns), "updated_at"];
  sql(db, `UPDATE ${table} SET ${names.map((n) => `${n} = ?`).join(", ")} WHERE id = ?`).run(
    ...Object.values(columns),
    new Date().toISOString(),
    id,
  );
}
