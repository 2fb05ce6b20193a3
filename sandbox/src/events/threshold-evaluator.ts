import {
  periodContaining,
  thresholdKey,
  thresholdLevel,
  type BudgetAlert,
  type BudgetPeriod,
  type Threshold,
} from "@cloudcost/api/contract";
import { budgetAmount, inWindow, type BudgetAmount } from "../costs/budget-amount";
import type { PeriodSpend } from "../costs/cost-reads";
import { addDays } from "../costs/calendar";
import type { SandboxContext } from "../service/context";
import { newId } from "../store/ids";
import { recordEvent, type Email } from "./event-recorder";
import type { Due } from "./timeline";

/**
 * A moment an alert is judged at: the period containing `periodDate`, billed up to the day before
 * `today`, the event dated `at`. Besides the organization's "now", every period end the clock passed
 * is judged too, with the whole period billed, so a clock step over a month end cannot skip a crossing;
 * likewise the end of the alert's active window (`endDate`), billed up to that day.
 */
interface Instant {
  periodDate: Date;
  today: string;
  at: Date;
  /** The day the judgment stands for, tested against the active window: the last billed day of a period or window end, else today. */
  day: string;
}

const dayStart = (date: string): Date => new Date(`${date}T00:00:00.000Z`);

/** The ends of `period` after `from` up to `to`: each judged on the first day after the period. */
function periodEnds(period: BudgetPeriod, from: Date, to: Date): Instant[] {
  const out: Instant[] = [];
  let next = addDays(periodContaining(period, from).to, 1);
  while (dayStart(next).getTime() <= to.getTime() && out.length < 1000) {
    out.push({ periodDate: dayStart(addDays(next, -1)), today: next, at: dayStart(next), day: addDays(next, -1) });
    next = addDays(periodContaining(period, dayStart(next)).to, 1);
  }
  return out;
}

/** The end of the alert's window when the clock passed it between `from` and `to` (and it is not a period end). */
function windowEnd(alert: BudgetAlert, from: Date, to: Date): Instant[] {
  if (alert.endDate === null) return [];
  const next = addDays(alert.endDate, 1);
  const at = dayStart(next);
  const isPeriodEnd = periodContaining(alert.period, at).from === next;
  if (isPeriodEnd || at.getTime() <= from.getTime() || at.getTime() > to.getTime()) return [];
  return [{ periodDate: dayStart(alert.endDate), today: next, at, day: alert.endDate }];
}

const spendOf = (threshold: Threshold, spend: PeriodSpend): number =>
  threshold.basis === "actual" ? spend.currentSpend : spend.forecastedSpend;

/** How a threshold reads in a message: `80%` or `1500 USD`. */
const levelText = (threshold: Threshold, currency: string): string =>
  threshold.percent !== undefined ? `${threshold.percent}%` : `${threshold.amount ?? 0} ${currency}`;

/** The threshold's e-mail, to its own recipients when it names them (issue 27), else to the alert's. */
function emails(alert: BudgetAlert, threshold: Threshold, budget: BudgetAmount, value: number, spend: PeriodSpend): Email[] {
  const what = threshold.basis === "actual" ? "Spend so far" : "Forecast spend";
  const level = levelText(threshold, alert.currency);
  const subject = `Budget alert "${alert.name}": ${level} of ${budget.amount} ${alert.currency} reached (${threshold.basis})`;
  const text = [
    `${what} for ${spend.periodStart} to ${spend.periodEnd} is ${value.toFixed(2)} ${spend.spendCurrency},`,
    `${level} or more of the budget of ${budget.amount} ${alert.currency} (${budget.source}) of "${alert.name}" (${alert.id}).`,
  ].join("\n");
  return (threshold.recipients ?? alert.recipients).map((to) => ({ to, subject, text, attachments: [] }));
}

/** Judges one alert at one instant; counts the thresholds that fired now (first time for their period). */
function judge(ctx: SandboxContext, orgId: string, alert: BudgetAlert, spend: PeriodSpend, at: Date): number {
  const budget = budgetAmount(ctx.costs, orgId, alert, spend.periodStart);
  let fired = 0;
  for (const threshold of alert.thresholds) {
    const level = thresholdLevel(threshold, budget.amount);
    const value = spendOf(threshold, spend);
    if (value < level) continue;
    const recorded = recordEvent(ctx, {
      orgId,
      // Exactly once per (alert, period, threshold): the UNIQUE key decides, across restarts and processes.
      // A percent threshold keeps its pre-issue-27 key, so data folders made before it do not fire twice.
      dedupeKey: `threshold:${alert.id}:${spend.periodStart}:${thresholdKey(threshold)}`,
      event: {
        id: newId("evt"),
        type: "budget_alert.threshold_crossed",
        createdAt: at.toISOString(),
        data: {
          alertId: alert.id,
          alertName: alert.name,
          groupId: alert.groupId,
          threshold,
          amount: budget.amount,
          amountSource: budget.source,
          thresholdAmount: level,
          currency: alert.currency,
          spend: value,
          periodStart: spend.periodStart,
          periodEnd: spend.periodEnd,
        },
      },
      emails: emails(alert, threshold, budget, value, spend),
      webhookUrl: alert.webhookUrl,
    });
    if (recorded) fired++;
  }
  return fired;
}

/**
 * The judgments of every enabled alert of the organization due between `from` and `to`: at each period end
 * the clock passed, at the end of its active window, then at `to` (the organization's now). Disabled
 * alerts never fire, nor does an alert outside its active window (issue 27). Each judgment resolves with
 * how many events it recorded.
 */
export function dueAlertJudgments(ctx: SandboxContext, orgId: string, from: Date, to: Date): Due[] {
  return ctx.alerts
    .list(orgId)
    .filter((alert) => alert.enabled)
    .flatMap((alert): Due[] => {
      const past = [...periodEnds(alert.period, from, to), ...windowEnd(alert, from, to)].filter((i) => inWindow(alert, i.day));
      const now: Due[] = inWindow(alert, to.toISOString().slice(0, 10))
        ? // The alert as read carries its spend at the organization's now (store/alerts.ts).
          [{ at: to, counts: "alertEvents", run: () => judge(ctx, orgId, alert, alert, to) }]
        : [];
      return [
        ...past.map((instant): Due => ({
          at: instant.at,
          counts: "alertEvents",
          run: () => {
            const spend = ctx.costs.periodSpend(orgId, alert, alert.period, { periodDate: instant.periodDate, today: instant.today });
            return judge(ctx, orgId, alert, spend, instant.at);
          },
        })),
        ...now,
      ];
    });
}
