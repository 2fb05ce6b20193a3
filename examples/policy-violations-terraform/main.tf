# Policy violations (examples/policy-violations) in HCL: a configuration the cloudcost budget policies
# reject before anything is deployed. Each resource breaks one policy:
#
#   tofu plan -out plan.out && tofu show -json plan.out > plan.json
#   npx --package @cloudcost/policies cloudcost-policies check-plan plan.json --config policy-config.json
#
# (README.md lists what it reports.) Do not apply it.
terraform {
  required_version = ">= 1.11"
  required_providers {
    cloudcost = { source = "cloudcost/cloudcost" }
  }
}

provider "cloudcost" {}

locals {
  recipients = ["finops@example.com"]
  guarded = [
    { percent = 90, basis = "forecast" },
    { percent = 100, basis = "actual" },
  ]
}

resource "cloudcost_cloud_group" "checkout" {
  name            = "Checkout"
  aws_account_ids = ["111122223333"]
}

resource "cloudcost_budget_alert" "checkout_budget" {
  name       = "Checkout budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 3000
  thresholds = local.guarded
  recipients = local.recipients
}

# cloud-group-members: a group with no accounts.
resource "cloudcost_cloud_group" "empty" {
  name = "Empty"
}

resource "cloudcost_budget_alert" "empty_budget" {
  name       = "Empty budget"
  group_id   = cloudcost_cloud_group.empty.id
  amount     = 100
  thresholds = local.guarded
  recipients = local.recipients
}

# cloud-group-budget-coverage: a group no budget watches.
resource "cloudcost_cloud_group" "unwatched" {
  name            = "Unwatched"
  aws_account_ids = ["444455556666"]
}

# cloud-group-exclusive-membership (advisory): 111122223333 is in checkout too.
resource "cloudcost_cloud_group" "overlap" {
  name                   = "Overlap"
  aws_account_ids        = ["111122223333"]
  azure_subscription_ids = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"]
}

resource "cloudcost_budget_alert" "overlap_budget" {
  name       = "Overlap budget"
  group_id   = cloudcost_cloud_group.overlap.id
  amount     = 500
  thresholds = local.guarded
  recipients = local.recipients
}

# budget-alert-group-scope: no group_id.
resource "cloudcost_budget_alert" "org_wide_budget" {
  name       = "Organization budget"
  amount     = 9000
  thresholds = local.guarded
  recipients = local.recipients
}

# budget-alert-currency: not USD.
resource "cloudcost_budget_alert" "euro_budget" {
  name       = "Euro budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 2000
  currency   = "EUR"
  thresholds = local.guarded
  recipients = local.recipients
}

# budget-alert-max-amount and budget-total-cap (policy-config.json: 50,000 USD a month in all).
resource "cloudcost_budget_alert" "huge_budget" {
  name       = "Huge budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 150000
  thresholds = local.guarded
  recipients = local.recipients
}

# budget-alert-recipients: nobody is told.
resource "cloudcost_budget_alert" "silent_budget" {
  name       = "Silent budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 1000
  thresholds = local.guarded
  recipients = []
}

# budget-alert-thresholds: no forecast threshold before the money is spent.
resource "cloudcost_budget_alert" "late_budget" {
  name       = "Late budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 1000
  thresholds = [{ percent = 100, basis = "actual" }]
  recipients = local.recipients
}

# budget-alert-threshold-amounts: an absolute threshold above the amount fires only once the budget is spent.
resource "cloudcost_budget_alert" "overshoot_budget" {
  name       = "Overshoot budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 1000
  thresholds = concat(local.guarded, [{ amount = 1200, basis = "actual" }])
  recipients = local.recipients
}

# filter-tag-keys: policy-config.json allows the tag keys "team" and "env"; tag keys are case-sensitive.
resource "cloudcost_budget_alert" "mistagged_budget" {
  name       = "Mistagged budget"
  group_id   = cloudcost_cloud_group.checkout.id
  amount     = 500
  filters    = { tags = [{ key = "Team", values = ["web"] }] }
  thresholds = local.guarded
  recipients = local.recipients
}

# scheduled-report-delivery: policy-config.json allows only CSV.
resource "cloudcost_scheduled_report" "pdf_report" {
  name       = "PDF report"
  report     = "summary"
  group_id   = cloudcost_cloud_group.checkout.id
  schedule   = { frequency = "monthly", day_of_month = 1, time = "06:00", timezone = "UTC" }
  format     = "pdf"
  recipients = local.recipients
}

# scheduled-report-recipients: policy-config.json allows only example.com addresses.
resource "cloudcost_scheduled_report" "leaky_report" {
  name       = "Leaky report"
  report     = "services"
  group_id   = cloudcost_cloud_group.checkout.id
  schedule   = { frequency = "daily", time = "06:00", timezone = "UTC" }
  recipients = ["someone@mail.example.org"]
}
