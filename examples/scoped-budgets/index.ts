import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, ScheduledReport } from "@cloudcost/pulumi";

const config = new pulumi.Config();
const finops = config.getObject<string[]>("recipients") ?? ["finops@example.com"];
/** Where the spend feed is POSTed; a local receiver by default (see alert-fires for one that verifies signatures). */
const feedUrl = config.get("feedWebhookUrl") ?? "http://localhost:8787/cost-feed";

/** The first day of the month `offset` months from now (UTC), as the planned amounts and windows name periods. */
function monthStart(offset: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

// 1. Scoped by account, service and region: EC2 of the production account in the two EU regions.
const euCompute = new BudgetAlert("eu-compute", {
  name: "EU compute (production)",
  amount: 20_000,
  filters: { accountIds: ["111122223333"], services: ["Amazon EC2"], regions: ["eu-west-1", "eu-central-1"] },
  thresholds: [
    { percent: 100, basis: "actual" },
    { percent: 90, basis: "forecast" },
  ],
  recipients: finops,
});

// 2. Scoped by tag, with an absolute threshold and routing per threshold: the team hears early, on-call
//    hears at a fixed amount, and the 100% mark goes to the webhook only.
const webTeam = new BudgetAlert("web-team", {
  name: "Web team (tag team=web, production)",
  amount: 50_000,
  filters: {
    tags: [
      { key: "team", values: ["web"] },
      { key: "env", values: ["prod"] },
    ],
  },
  thresholds: [
    { percent: 80, basis: "forecast", recipients: ["web-leads@example.com"] },
    { amount: 45_000, basis: "actual", recipients: ["oncall@example.com"] },
    { percent: 100, basis: "actual" },
  ],
  recipients: finops,
});

// 3. Different amounts per period: a higher budget for next month and the one after (a planned launch).
const dataPlatform = new BudgetAlert("data-platform", {
  name: "Data platform (AWS account 777788889999)",
  amount: 30_000,
  filters: { accountIds: ["777788889999"] },
  plannedAmounts: [
    { periodStart: monthStart(1), amount: 45_000 },
    { periodStart: monthStart(2), amount: 40_000 },
  ],
  thresholds: [
    { percent: 100, basis: "actual" },
    { percent: 100, basis: "forecast" },
  ],
  recipients: finops,
});

// 4. Set from history: each month's budget is the mean of the last three complete months (amount while
//    there is no history). The service's figure is the effectiveAmount output.
const storage = new BudgetAlert("storage", {
  name: "Storage follows history",
  amount: 5_000,
  filters: { services: ["Amazon S3", "Storage Accounts"] },
  autoAdjust: { lookbackPeriods: 3 },
  thresholds: [
    { percent: 100, basis: "actual" },
    { percent: 120, basis: "forecast" },
  ],
  recipients: finops,
});

// 5. A start and an end: a campaign budget active for this month and the next two only. Both change in
//    place at any time, also after the start month has passed.
const campaign = new BudgetAlert("campaign", {
  name: "Autumn campaign",
  amount: 8_000,
  filters: { tags: [{ key: "team", values: ["web"] }], providers: ["aws"] },
  startDate: monthStart(0),
  endDate: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 3, 0)).toISOString().slice(0, 10),
  thresholds: [
    { percent: 100, basis: "actual" },
    { percent: 100, basis: "forecast" },
  ],
  recipients: finops,
});

// 6. A scheduled report of budget against actual: every alert above, with amount, spend, forecast and
//    thresholds crossed, each Monday.
const status = new ScheduledReport("budget-status", {
  name: "Weekly budget status",
  report: "budget_status",
  schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
  format: "pdf",
  recipients: finops,
});

// 7. A spend feed without thresholds: the daily cost by service of the EU regions, POSTed to a webhook
//    (encrypted in state) and mailed to no one.
const feed = new ScheduledReport("eu-spend-feed", {
  name: "EU spend feed",
  report: "services",
  filters: { regions: ["eu-west-1", "eu-central-1", "westeurope"] },
  schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
  webhookUrl: feedUrl,
});

export const budgets = {
  euCompute: euCompute.effectiveAmount,
  webTeam: webTeam.effectiveAmount,
  dataPlatform: dataPlatform.effectiveAmount,
  storage: pulumi.all([storage.effectiveAmount, storage.effectiveAmountSource]).apply(([amount, source]) => ({ amount, source })),
  campaignActive: campaign.active,
};
export const reports = { status: status.id, feed: feed.id };
