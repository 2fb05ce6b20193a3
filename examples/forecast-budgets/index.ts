import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, getCostForecast, getCostSummary, lastQuarter, thisQuarter } from "@cloudcost/pulumi";

const config = new pulumi.Config();
/** Budget = this percent of what the group cost last quarter ... */
const headroomPercent = config.getNumber("headroomPercent") ?? 110;
/** ... but never below what the service forecasts for the current quarter. */
const recipients = config.getObject<string[]>("recipients") ?? ["finops@example.com"];

/** Amounts have at most two decimal places (the API rejects more). */
const cents = (n: number): number => Math.round(n * 100) / 100;

/**
 * A group whose quarterly budget follows its own cost history: the cost-data functions read the
 * service when the program runs, so every `pulumi up` re-derives the amount (and shows the change in
 * the preview before applying it).
 */
function groupWithDerivedBudget(slug: string, name: string, members: { aws?: string[]; azure?: string[] }) {
  const group = new CloudGroup(slug, { name, awsAccountIds: members.aws ?? [], azureSubscriptionIds: members.azure ?? [] });
  const derived = group.id.apply(async (groupId) => {
    const [history, forecast] = await Promise.all([
      getCostSummary({ ...lastQuarter(), groupId }),
      getCostForecast({ ...thisQuarter(), groupId }),
    ]);
    const fromHistory = cents((history.total * headroomPercent) / 100);
    return {
      amount: Math.max(fromHistory, cents(forecast.total), 1),
      currency: history.currency,
      lastQuarter: history.total,
      forecast: forecast.total,
    };
  });
  const alert = new BudgetAlert(`${slug}-quarterly`, {
    name: `${name} quarterly budget`,
    groupId: group.id,
    period: "quarterly",
    amount: derived.amount,
    currency: derived.currency,
    thresholds: [
      { percent: 100, basis: "forecast" },
      { percent: 100, basis: "actual" },
    ],
    recipients,
  });
  return {
    groupId: group.id,
    alertId: alert.id,
    budget: alert.amount,
    lastQuarter: derived.lastQuarter,
    forecastThisQuarter: derived.forecast,
  };
}

export const storefront = groupWithDerivedBudget("storefront", "Storefront", {
  aws: ["111122223333"],
  azure: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
});
export const analytics = groupWithDerivedBudget("analytics", "Analytics", {
  aws: ["777788889999"],
  azure: ["6f1a3c2e-8d4b-4b7a-9c51-2e0d7f3a9b14"],
});
