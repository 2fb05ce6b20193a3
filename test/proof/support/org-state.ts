import type { BudgetAlert, CloudGroup, Finding, ScanRun, ScheduledReport } from "@cloudcost/api";
import { listAll } from "./http";

/** What an organization holds, read through the API; equal snapshots mean nothing was changed. */
export interface OrgState {
  groups: CloudGroup[];
  alerts: Omit<BudgetAlert, "currentSpend" | "forecastedSpend">[];
  reports: ScheduledReport[];
  /** Runs move on by themselves (queued → running → …), so only their existence is compared. */
  scanIds: string[];
  openFindingIds: string[];
}

const byId = <T extends { id: string }>(a: T, b: T) => a.id.localeCompare(b.id);

export async function orgState(baseUrl: string, token: string): Promise<OrgState> {
  const [groups, alerts, reports, scans, insights, waste, recommendations] = await Promise.all([
    listAll<CloudGroup>(baseUrl, token, "/groups"),
    listAll<BudgetAlert>(baseUrl, token, "/alerts"),
    listAll<ScheduledReport>(baseUrl, token, "/reports"),
    listAll<ScanRun>(baseUrl, token, "/scans"),
    listAll<Finding>(baseUrl, token, "/insights"),
    listAll<Finding>(baseUrl, token, "/waste"),
    listAll<Finding>(baseUrl, token, "/recommendations"),
  ]);
  return {
    groups: groups.sort(byId),
    alerts: alerts.map(({ currentSpend: _c, forecastedSpend: _f, ...rest }) => rest).sort(byId),
    reports: reports.sort(byId),
    scanIds: scans.map((s) => s.runId).sort(),
    openFindingIds: [...insights, ...waste, ...recommendations].map((f) => f.id).sort(),
  };
}

/**
 * Asserts that nothing was changed between two snapshots. Findings are the one thing that changes by
 * itself (a finished scan run adds new ones), so the open findings may grow but none may disappear
 * (disappearing = acknowledged).
 */
export function expectUnchanged(before: OrgState, after: OrgState): void {
  const { openFindingIds: openBefore, ...restBefore } = before;
  const { openFindingIds: openAfter, ...restAfter } = after;
  expect(restAfter).toEqual(restBefore);
  expect(openBefore.filter((id) => !openAfter.includes(id))).toEqual([]);
}
