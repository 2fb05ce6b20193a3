import { randomBytes } from "node:crypto";
import type { Db } from "./connection";
import { sql } from "./statements";

const ids = new WeakMap<Db, string>();

/**
 * A random ID of the data folder, made once and kept in `sandbox_meta`. Cookies carry it in their
 * names: cookies are scoped by host, not by port, so two sandboxes on one machine would otherwise
 * overwrite (sign out) each other's sessions and CSRF secrets. Processes serving the same data folder
 * share users and sessions anyway, and so share the names.
 */
export function instanceId(db: Db): string {
  let id = ids.get(db);
  if (id === undefined) {
    sql(db, "INSERT OR IGNORE INTO sandbox_meta (key, value) VALUES ('instance_id', ?)").run(randomBytes(5).toString("hex"));
    id = (sql(db, "SELECT value FROM sandbox_meta WHERE key = 'instance_id'").get() as { value: string }).value;
    ids.set(db, id);
  }
  return id;
}
