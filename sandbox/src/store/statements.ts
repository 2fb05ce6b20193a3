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
