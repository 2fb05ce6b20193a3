import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";

const config = new pulumi.Config();
/** Who receives the alert e-mails and the weekly report. */
const owner = config.get("owner") ?? "finops@example.com";

// A Cloud Group is a named set of connected cloud accounts. These two are connected to the sandbox's
// demo organization (see `GET /api/v1/accounts` or the portal); put your own IDs here for a real account.
const webShop = new CloudGroup("web-shop", {
  name: "Web shop",
  description: "Production accounts of the web shop",
  awsAccountIds: ["111122223333"],
  azureSubscriptionIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
});

// Mails `owner` when the forecast for the month reaches 80% of 5,000 USD, and again when the actual
// spend reaches 100%.
const budget = new BudgetAlert("web-shop-monthly", {
  name: "Web shop monthly budget",
  groupId: webShop.id,
  amount: 5000,
  currency: "USD",
  period: "monthly",
  thresholds: [
    { percent: 80, basis: "forecast" },
    { percent: 100, basis: "actual" },
  ],
  recipients: [owner],
});

// Cost per service of the group, every Monday at 08:00 Berlin time, as CSV.
const weekly = new ScheduledReport("web-shop-weekly", {
  name: "Web shop weekly cost by service",
  report: "services",
  groupId: webShop.id,
  schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
  format: "csv",
  recipients: [owner],
});

export const groupId = webShop.id;
export const alertId = budget.id;
export const reportId = weekly.id;
/** What the service reports for the group right now (read at deploy and on every refresh). */
export const spendThisMonth = budget.currentSpend;
export const forecastThisMonth = budget.forecastedSpend;
export const nextReportAt = weekly.nextRunAt;
