import { periodContaining, type BudgetAlert, type BudgetPeriod, type Threshold } from "@cloudcost/api";
import type { PeriodSpend } from "../costs/cost-reads";
import { addDays } from "../costs/calendar";
import type { SandboxContext } from "../service/context";
import { newId } from "../store/ids";
import { recordEvent, type Email } from "./event-recorder";
import type { Due } from "./timeline";

/**
 * A moment an alert is judged at: the period containing `periodDate`, billed up to the day before
 * `today`, the event dated `at`. Besides the organization's "now", every period end the clock passed
 * is judged too, with the whole period billed, so a clock step over a month end cannot skip a crossing.
 */
interface Instant {
  periodDate: Date;
  today: string;
  at: Date;
}

const dayStart = (date: string): Date => new Date(`${date}T00:00:00.000Z`);

/** The ends of `period` after `from` up to `to`: each judged on the first day after the period. */
function periodEnds(period: BudgetPeriod, from: Date, to: Date): Instant[] {
  const out: Instant[] = [];
  let next = addDays(periodContaining(period, from).to, 1);
  while (dayStart(next).getTime() <= to.getTime() && out.length < 1000) {
    out.push({ periodDate: dayStart(addDays(next, -1)), today: next, at: dayStart(next) });
    next = addDays(periodContaining(period, dayStart(next)).to, 1);
  }
  return out;
}

const reached = (alert: BudgetAlert, threshold: Threshold, spend: PeriodSpend): boolean =>
  (threshold.basis === "actual" ? spend.currentSpend : spend.forecastedSpend) >= (alert.amount * threshold.percent) / 100;

function emails(alert: BudgetAlert, threshold: Threshold, spendValue: number, spend: PeriodSpend): Email[] {
  const what = threshold.basis === "actual" ? "Spend so far" : "Forecast spend";
  const subject = `Budget alert "${alert.name}": ${threshold.percent}% of ${alert.amount} ${alert.currency} reached (${threshold.basis})`;
  const text = [
    `${what} for ${spend.periodStart} to ${spend.periodEnd} is ${spendValue.toFixed(2)} ${spend.spendCurrency},`,
    `${threshold.percent}% or more of the budget of ${alert.amount} ${alert.currency} of "${alert.name}" (${alert.id}).`,
  ].join("\n");
  return alert.recipients.map((to) => ({ to, subject, text, attachments: [] }));
}

/** Judges one enabled alert at one instant; true for each threshold that fired now (first time for its period). */
function judge(ctx: SandboxContext, orgId: string, alert: BudgetAlert, spend: PeriodSpend, at: Date): number {
  let fired = 0;
  for (const threshold of alert.thresholds) {
    if (!reached(alert, threshold, spend)) continue;
    const value = threshold.basis === "actual" ? spend.currentSpend : spend.forecastedSpend;
    const recorded = recordEvent(ctx, {
      orgId,
      // Exactly once per (alert, period, threshold): the UNIQUE key decides, across restarts and processes.
      dedupeKey: `threshold:${alert.id}:${spend.periodStart}:${threshold.basis}:${threshold.percent}`,
      event: {
        id: newId("evt"),
        type: "budget_alert.threshold_crossed",
        createdAt: at.toISOString(),
        data: {
          alertId: alert.id,
          alertName: alert.name,
          groupId: alert.groupId,
          threshold: { percent: threshold.percent, basis: threshold.basis },
          amount: alert.amount,
          currency: alert.currency,
          spend: value,
          periodStart: spend.periodStart,
          periodEnd: spend.periodEnd,
        },
      },
      emails: emails(alert, threshold, value, spend),
      webhookUrl: alert.webhookUrl,
    });
    if (recorded) fired++;
  }
  return fired;
}

/**
 * The judgments of every enabled alert of the organization due between `from` and `to`: at each period end
 * the clock passed, then at `to` (the organization's now). Disabled alerts never fire. Each judgment
 * resolves with how many events it recorded.
 */
export function dueAlertJudgments(ctx: SandboxContext, orgId: string, from: Date, to: Date): Due[] {
  return ctx.alerts
    .list(orgId)
    .filter((alert) => alert.enabled)
    .flatMap((alert): Due[] => [
      ...periodEnds(alert.period, from, to).map((instant) => ({
        at: instant.at,
        counts: "alertEvents" as const,
        run: () => {
          const spend = ctx.costs.periodSpend(orgId, alert.groupId, alert.period, { periodDate: instant.periodDate, today: instant.today });
          return judge(ctx, orgId, alert, spend, instant.at);
        },
      })),
      // The alert as read carries its spend at the organization's now (store/alerts.ts).
      { at: to, counts: "alertEvents", run: () => judge(ctx, orgId, alert, alert, to) },
    ]);
}
