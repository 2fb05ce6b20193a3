import type { Db } from "../database";
import { sql } from "../statements";

/** Tables whose rows may point at a Cloud Group; a group is in use while any row does. */
export const GROUP_REFERENCING_TABLES = { alert: "budget_alerts", report: "scheduled_reports" } as const;

/** IDs of the alerts and reports that use a group, e.g. `alert alr_…`. */
export function groupReferences(db: Db, groupId: string): string[] {
  return Object.entries(GROUP_REFERENCING_TABLES).flatMap(([noun, table]) =>
    (sql(db, `SELECT id FROM ${table} WHERE group_id = ? ORDER BY seq`).all(groupId) as { id: string }[]).map((r) => `${noun} ${r.id}`),
  );
}
