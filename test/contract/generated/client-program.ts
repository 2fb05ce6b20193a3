import createClient from "openapi-fetch";
import type { components, paths } from "./openapi";

type Schedule = components["schemas"]["Schedule"];

/** What the program saw, for the test to compare with what the service holds. */
export interface Tour {
  groupName: string;
  alertAmount: number;
  reportSchedule: Schedule;
  summaryCurrency: string;
  missingStatus: number | undefined;
  blankNameErrors: string[];
}

/**
 * A small program written the way a user of the document would: types from `openapi-typescript`, calls
 * through `openapi-fetch`, no hand-written types. It must compile under `strict` and run against the service.
 */
export async function tour(baseUrl: string, token: string): Promise<Tour> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const group = await client.POST("/groups", { body: { name: "Typed client" }, params: { header: { "Idempotency-Key": "typed-client-1" } } });
  if (!group.data) throw new Error(`createGroup failed: ${JSON.stringify(group.error)}`);
  const alert = await client.POST("/alerts", {
    body: { name: "Typed cap", amount: 1250.5, currency: "EUR", period: "quarterly", groupId: group.data.id, thresholds: [{ percent: 90, basis: "forecast" }] },
  });
  if (!alert.data) throw new Error(`createAlert failed: ${JSON.stringify(alert.error)}`);
  const report = await client.POST("/reports", {
    body: { name: "Typed report", report: "daily", schedule: { frequency: "monthly", dayOfMonth: 31, time: "06:00", timezone: "Europe/Berlin" }, recipients: ["finops@example.com"] },
  });
  if (!report.data) throw new Error(`createReport failed: ${JSON.stringify(report.error)}`);
  const summary = await client.GET("/cost/summary", { params: { query: { from: "2026-10-01", to: "2026-10-31", groupId: group.data.id } } });
  if (!summary.data) throw new Error(`getCostSummary failed: ${JSON.stringify(summary.error)}`);
  const missing = await client.GET("/groups/{groupId}", { params: { path: { groupId: "grp_0000000000zz" } } });
  const blank = await client.POST("/groups", { body: { name: "   " } });
  return {
    groupName: group.data.name,
    alertAmount: alert.data.amount,
    reportSchedule: report.data.schedule,
    summaryCurrency: summary.data.currency,
    missingStatus: missing.error?.status,
    blankNameErrors: (blank.error?.errors ?? []).map((e) => e.path),
  };
}

/** Mistakes the generated types must refuse at compile time (each line is an error, or tsc reports the directive as unused). */
export function refusedByTheTypes(): Schedule[] {
  return [
    // @ts-expect-error a weekly schedule needs dayOfWeek (the union on `frequency`)
    { frequency: "weekly", time: "09:00", timezone: "UTC" },
    // @ts-expect-error a daily schedule takes no dayOfMonth
    { frequency: "daily", dayOfMonth: 3, time: "09:00", timezone: "UTC" },
  ];
}
