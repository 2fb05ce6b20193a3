import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, getCostSummary, getWebhookSigningSecret, monthToDate } from "@cloudcost/pulumi";

const config = new pulumi.Config();
/** Where the receiver listens (receiver.ts); plain http is allowed to this machine only. */
const receiverUrl = config.get("receiverUrl") ?? "http://127.0.0.1:8789/webhooks/cloudcost";
/** The budget is what the group spent this month so far plus this much, so a little more spend crosses it. */
const headroom = config.getNumber("headroom") ?? 100;
const owner = config.get("owner") ?? "oncall@example.com";

/** Amounts have at most two decimal places (the API rejects more). */
const cents = (n: number): number => Math.round(n * 100) / 100;

// One account of the sandbox's demo organization; put your own ID here for a real account.
const checkout = new CloudGroup("checkout", {
  name: "Checkout",
  description: "The checkout service's staging account",
  awsAccountIds: ["444455556666"],
});

// The month's spend so far, read from the service when the program runs (in an apply: it needs the group's ID).
const spentSoFar = checkout.id.apply(async (groupId) => (await getCostSummary({ ...monthToDate(), groupId })).total);

// Each threshold fires once per month, with an e-mail to `owner` and a signed webhook to the receiver:
// the forecast one as soon as the month's forecast passes the budget (with a budget this tight, usually at
// the first evaluation after `up`), the actual one when the spend itself reaches it. The policy pack's
// defaults ask for both: a budget should warn before it is spent.
const budget = new BudgetAlert("checkout-monthly", {
  name: "Checkout monthly budget",
  groupId: checkout.id,
  amount: spentSoFar.apply((spent) => cents(spent + headroom)),
  currency: "USD",
  period: "monthly",
  thresholds: [
    { percent: 100, basis: "forecast" },
    { percent: 100, basis: "actual" },
  ],
  recipients: [owner],
  webhookUrl: receiverUrl,
});

export const groupId = checkout.id;
export const alertId = budget.id;
export const budgetAmount = budget.amount;
export const spendThisMonth = budget.currentSpend;
/**
 * The key the receiver verifies webhooks with. A Pulumi secret: encrypted in the stack's state, shown only
 * with `pulumi stack output --show-secrets webhookSigningSecret`. A stack that deploys its receiver (a
 * function, a container) passes this to it as an environment variable or a secret of its platform.
 */
export const webhookSigningSecret = getWebhookSigningSecret();
