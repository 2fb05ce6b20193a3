// Cost reads for use inside a Pulumi program (settings as for the resources: see ./program-client).
import type {
  ConnectedAccount,
  CostByDay,
  CostByService,
  CostComparison,
  CostForecast,
  CostReadRequest,
  CostSummary,
} from "@cloudcost/api";
import { programClient } from "./program-client";

/**
 * An inclusive date window (YYYY-MM-DD, at most 366 days), an optional Cloud Group and optional `filters` —
 * the same filters as a BudgetAlert's (issue 27), so a program can read what a budget with them will count.
 */
export type CostWindow = CostReadRequest;

/** Totals, per-provider split and forecast for a window (`GET /cost/summary`). */
export function getCostSummary(args: CostWindow): Promise<CostSummary> {
  return programClient().getCostSummary(args);
}
/** Cost per service, largest first (`GET /cost/services`). */
export function getCostByService(args: CostWindow): Promise<CostByService> {
  return programClient().getCostByService(args);
}
/** Cost per day (`GET /cost/daily`). */
export function getCostByDay(args: CostWindow): Promise<CostByDay> {
  return programClient().getCostByDay(args);
}
/** Actual and forecast cost per day with an 80% interval (`GET /cost/forecast`). */
export function getCostForecast(args: CostWindow): Promise<CostForecast> {
  return programClient().getCostForecast(args);
}
/** The window against the window of the same length right before it (`GET /cost/comparison`). */
export function getCostComparison(args: CostWindow): Promise<CostComparison> {
  return programClient().getCostComparison(args);
}
/** Every cloud account connected to the organization (all pages of `GET /accounts`). */
export async function getAccounts(): Promise<ConnectedAccount[]> {
  const all: ConnectedAccount[] = [];
  for await (const account of programClient().listAccounts()) all.push(account);
  return all;
}
