/** Tables whose rows may point at a Cloud Group; a group is in use while any row does (migrations and repositories share the names). */
export const GROUP_REFERENCING_TABLES = { alert: "budget_alerts", report: "scheduled_reports" } as const;
