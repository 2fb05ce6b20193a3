import { DateTime, Duration } from "luxon";
import type { SandboxContext } from "../service/context";
import { invalidRequest, unprocessable } from "../errors";
import { todayUtc } from "../costs/calendar";
import { serviceProblem } from "../costs/service-names";
import { writeTransaction } from "../store/connection";
import {
  MAX_CLOCK_AHEAD_YEARS,
  MAX_CLOCK_STEP_DAYS,
  type ClockChange,
  type ClockState,
  type InjectedSpend,
  type SpendInjection,
} from "./controls-contract";

const DAY_MS = 86_400_000;

/** Evaluates an organization after its clock moved from `from` (the engine's serialized evaluation, or a direct one in the CLI). */
export type Evaluate = (orgId: string, from: Date) => Promise<unknown>;

export function clockState(ctx: SandboxContext, orgId: string): ClockState {
  const reading = ctx.clocks.read(orgId);
  return { now: reading.now.toISOString(), frozen: reading.frozen };
}

/** The time a change asks for; bad input is a 400 naming the field (never a 500, never a change). */
function target(current: Date, change: ClockChange): Date {
  if ("now" in change) return new Date(change.now);
  const stepped = DateTime.fromJSDate(current, { zone: "utc" }).plus(Duration.fromISO(change.advance));
  if (!stepped.isValid)
    throw invalidRequest("The clock cannot move that far.", [
      { path: "body.advance", code: "too_big", message: "moves the clock out of range" },
    ]);
  return stepped.toJSDate();
}

/**
 * `POST /sandbox/v1/clock`: sets the organization's clock (frozen from then on) and evaluates everything due
 * up to the new time before answering. Forward only (409); at most 366 days per step and 10 years ahead of
 * real time (400), since every day in between is evaluated.
 */
export async function changeClock(ctx: SandboxContext, orgId: string, change: ClockChange, evaluate: Evaluate): Promise<ClockState> {
  const field = "now" in change ? "body.now" : "body.advance";
  // Read, checked and set in one write transaction: two concurrent advances both count.
  const before = writeTransaction(ctx.db, () => {
    const current = ctx.clocks.now(orgId);
    const to = target(current, change);
    if (to.getTime() - current.getTime() > MAX_CLOCK_STEP_DAYS * DAY_MS)
      throw invalidRequest(`One clock change moves the clock at most ${MAX_CLOCK_STEP_DAYS} days; move it in several steps.`, [
        { path: field, code: "too_big", message: `moves the clock more than ${MAX_CLOCK_STEP_DAYS} days` },
      ]);
    const latest = DateTime.now().plus({ years: MAX_CLOCK_AHEAD_YEARS });
    if (to.getTime() > latest.toMillis())
      throw invalidRequest(`The clock can be set at most ${MAX_CLOCK_AHEAD_YEARS} years ahead of real time.`, [
        { path: field, code: "too_big", message: `is after ${latest.toUTC().toISO()}` },
      ]);
    // Reports not yet seen start where the clock was, so the step delivers exactly the runs it passes.
    for (const report of ctx.reports.list(orgId)) ctx.reportRuns.anchor(report.id, current.getTime());
    ctx.clocks.set(orgId, to);
    return current;
  });
  await evaluate(orgId, before);
  return clockState(ctx, orgId);
}

/**
 * `POST /sandbox/v1/spend`: spend on one of the organization's connected accounts, on its current day,
 * under one of the known services of the account's provider (422 naming `body.service` otherwise). It counts at once in cost reads and alerts' spend; the caller has crossings evaluated.
 */
export function injectSpend(ctx: SandboxContext, orgId: string, input: SpendInjection): InjectedSpend {
  const account = ctx.accounts.list(orgId).find((a) => a.accountId === input.accountId);
  if (!account)
    throw unprocessable(`Account ${input.accountId} is not connected to this organization.`, [
      { path: "body.accountId", code: "unknown_account", message: `${input.accountId} is not a connected account` },
    ]);
  // Only a service of the account's provider, named as the cost data names it, is ever matched by a filter.
  const problem = serviceProblem(account.provider, account.accountId, input.service, "body.service");
  if (problem) throw unprocessable(`"${input.service}" ${problem.message}${problem.message.endsWith("?") ? "" : "."}`, [problem]);
  const date = todayUtc(ctx.clocks.now(orgId));
  const cents = Math.round(input.amount * 100);
  writeTransaction(ctx.db, () =>
    ctx.injectedSpend.add(orgId, { provider: account.provider, accountId: account.accountId, service: input.service, day: date, cents }),
  );
  const currency = ctx.orgs.byId(orgId)?.currency ?? "USD";
  return { provider: account.provider, accountId: account.accountId, service: input.service, amount: cents / 100, currency, date };
}
