import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";

// A stack the cloudcost policy pack rejects. Every resource below breaks exactly one policy (named in
// the comment above it); README.md shows the message each one gets. Run it with the pack and this
// folder's policy-config.json, which narrows the e-mail domains, report formats and the budget cap:
//
//   pulumi preview --policy-pack ../../policies --policy-pack-config policy-config.json

const recipients = ["finops@example.com"];
const guarded = [
  { percent: 90, basis: "forecast" as const },
  { percent: 100, basis: "actual" as const },
];

// The baseline: a group and its budget that pass every policy.
const checkout = new CloudGroup("checkout", { name: "Checkout", awsAccountIds: ["111122223333"] });
new BudgetAlert("checkout-budget", { name: "Checkout budget", groupId: checkout.id, amount: 3000, thresholds: guarded, recipients });

// cloud-group-members: a group without members.
const empty = new CloudGroup("empty", { name: "Empty" });
new BudgetAlert("empty-budget", { name: "Empty budget", groupId: empty.id, amount: 100, thresholds: guarded, recipients });

// cloud-group-budget-coverage: a group no budget alert watches.
new CloudGroup("unwatched", { name: "Unwatched", awsAccountIds: ["444455556666"] });

// cloud-group-exclusive-membership (advisory: reported, does not block): an account in two groups.
const overlap = new CloudGroup("overlap", {
  name: "Overlap",
  awsAccountIds: ["111122223333"],
  azureSubscriptionIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
});
new BudgetAlert("overlap-budget", { name: "Overlap budget", groupId: overlap.id, amount: 500, thresholds: guarded, recipients });

// budget-alert-group-scope: no groupId, so it budgets the whole organization.
new BudgetAlert("org-wide-budget", { name: "Organization budget", amount: 9000, thresholds: guarded, recipients });

// budget-alert-currency: only USD is allowed by default.
new BudgetAlert("euro-budget", {
  name: "Euro budget",
  groupId: checkout.id,
  amount: 2000,
  currency: "EUR",
  thresholds: guarded,
  recipients,
});

// budget-alert-max-amount: more than 100,000 USD per month; being the largest, it also carries the
// budget-total-cap message (the sum of the stack's USD budgets is over the configured 50,000).
new BudgetAlert("huge-budget", { name: "Huge budget", groupId: checkout.id, amount: 150000, thresholds: guarded, recipients });

// budget-alert-recipients: nobody is told.
new BudgetAlert("silent-budget", { name: "Silent budget", groupId: checkout.id, amount: 1000, thresholds: guarded, recipients: [] });

// budget-alert-thresholds: no forecast threshold, so it only fires once the money is spent.
new BudgetAlert("late-budget", {
  name: "Late budget",
  groupId: checkout.id,
  amount: 1000,
  thresholds: [{ percent: 100, basis: "actual" }],
  recipients,
});

// budget-alert-threshold-amounts: an absolute threshold above the amount fires only once the budget is spent.
new BudgetAlert("overshoot-budget", {
  name: "Overshoot budget",
  groupId: checkout.id,
  amount: 1000,
  thresholds: [...guarded, { amount: 1200, basis: "actual" }],
  recipients,
});

// filter-tag-keys: policy-config.json allows the tag keys "team" and "env"; tag keys are case-sensitive.
new BudgetAlert("mistagged-budget", {
  name: "Mistagged budget",
  groupId: checkout.id,
  amount: 500,
  filters: { tags: [{ key: "Team", values: ["web"] }] },
  thresholds: guarded,
  recipients,
});

// scheduled-report-delivery: policy-config.json allows only CSV.
new ScheduledReport("pdf-report", {
  name: "PDF report",
  report: "summary",
  groupId: checkout.id,
  schedule: { frequency: "monthly", dayOfMonth: 1, time: "06:00", timezone: "UTC" },
  format: "pdf",
  recipients,
});

// scheduled-report-recipients: policy-config.json allows only example.com addresses.
new ScheduledReport("leaky-report", {
  name: "Leaky report",
  report: "services",
  groupId: checkout.id,
  schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
  recipients: ["someone@mail.example.org"],
});
