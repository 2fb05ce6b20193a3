import type { Db } from "./connection";
import { sql } from "./statements";
import { GROUP_REFERENCING_TABLES } from "./tables";

/** IDs of the alerts and reports that use a group, e.g. `alert alr_…`. */
export function groupReferences(db: Db, groupId: string): string[] {
  return Object.entries(GROUP_REFERENCING_TABLES).flatMap(([noun, table]) =>
    (sql(db, `SELECT id FROM ${table} WHERE group_id = ? ORDER BY seq`).all(groupId) as { id: string }[]).map((r) => `${noun} ${r.id}`),
  );
}
