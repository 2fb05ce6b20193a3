# Scoped budgets (examples/scoped-budgets) in HCL: budgets narrowed by filters, per-threshold recipients,
# planned amounts, amounts from history, a campaign window, a budget_status report and a spend feed.
terraform {
  required_version = ">= 1.11" # webhook_url_wo is a write-only argument (OpenTofu/Terraform 1.11+)
  required_providers {
    cloudcost = { source = "cloudcost/cloudcost" }
  }
}

provider "cloudcost" {}

variable "recipients" {
  type    = set(string)
  default = ["finops@example.com"]
}

variable "feed_webhook_url" {
  description = "where the spend feed is POSTed; a local receiver by default (see examples/alert-fires for one that verifies signatures)"
  type        = string
  default     = "http://localhost:8787/cost-feed"
  ephemeral   = true # not `sensitive`: a saved plan stores a sensitive variable's value; an ephemeral one is kept nowhere
}

# Periods are calendar months (UTC). Planned amounts name the first day of the periods they replace; the
# campaign is active between its dates. Fixed dates, so a plan tomorrow is the plan today.
variable "planned_periods" {
  description = "first day of a month => that month's budget of the data platform"
  type        = map(number)
  default     = { "2027-01-01" = 45000, "2027-02-01" = 40000 }
}

variable "campaign" {
  type    = object({ start_date = string, end_date = string })
  default = { start_date = "2026-09-01", end_date = "2026-12-31" }
}

resource "cloudcost_budget_alert" "eu_compute" {
  name   = "EU compute (production)"
  amount = 20000
  filters = {
    account_ids = ["111122223333"]
    services    = ["Amazon EC2"]
    regions     = ["eu-west-1", "eu-central-1"]
  }
  thresholds = [
    { percent = 100, basis = "actual" },
    { percent = 90, basis = "forecast" },
  ]
  recipients = var.recipients
}

resource "cloudcost_budget_alert" "web_team" {
  name   = "Web team (tag team=web, production)"
  amount = 50000
  filters = {
    tags = [
      { key = "team", values = ["web"] },
      { key = "env", values = ["prod"] },
    ]
  }
  thresholds = [
    { percent = 80, basis = "forecast", recipients = ["web-leads@example.com"] },
    { amount = 45000, basis = "actual", recipients = ["oncall@example.com"] },
    { percent = 100, basis = "actual" }, # no recipients of its own: the alert's
  ]
  recipients = var.recipients
}

resource "cloudcost_budget_alert" "data_platform" {
  name            = "Data platform (AWS account 777788889999)"
  amount          = 30000
  filters         = { account_ids = ["777788889999"] }
  planned_amounts = [for start, amount in var.planned_periods : { period_start = start, amount = amount }]
  thresholds = [
    { percent = 100, basis = "actual" },
    { percent = 100, basis = "forecast" },
  ]
  recipients = var.recipients
}

resource "cloudcost_budget_alert" "storage" {
  name        = "Storage follows history"
  amount      = 5000
  filters     = { services = ["Amazon S3", "Storage Accounts"] }
  auto_adjust = { lookback_periods = 3 }
  thresholds = [
    { percent = 100, basis = "actual" },
    { percent = 120, basis = "forecast" },
  ]
  recipients = var.recipients
}

resource "cloudcost_budget_alert" "campaign" {
  name       = "Autumn campaign"
  amount     = 8000
  filters    = { tags = [{ key = "team", values = ["web"] }], providers = ["aws"] }
  start_date = var.campaign.start_date
  end_date   = var.campaign.end_date
  thresholds = [
    { percent = 100, basis = "actual" },
    { percent = 100, basis = "forecast" },
  ]
  recipients = var.recipients
}

resource "cloudcost_scheduled_report" "budget_status" {
  name       = "Weekly budget status"
  report     = "budget_status"
  schedule   = { frequency = "weekly", day_of_week = "monday", time = "08:00", timezone = "Europe/Berlin" }
  format     = "pdf"
  recipients = var.recipients
}

resource "cloudcost_scheduled_report" "eu_spend_feed" {
  name     = "EU spend feed"
  report   = "services"
  filters  = { regions = ["eu-west-1", "eu-central-1", "westeurope"] }
  schedule = { frequency = "daily", time = "06:00", timezone = "UTC" }
  # Write-only: sent to the service, never stored in state or a saved plan. A changed URL is sent on the next apply.
  webhook_url_wo = var.feed_webhook_url
}

output "budgets" {
  value = {
    eu_compute      = cloudcost_budget_alert.eu_compute.effective_amount
    web_team        = cloudcost_budget_alert.web_team.effective_amount
    data_platform   = cloudcost_budget_alert.data_platform.effective_amount
    storage         = { amount = cloudcost_budget_alert.storage.effective_amount, source = cloudcost_budget_alert.storage.effective_amount_source }
    campaign_active = cloudcost_budget_alert.campaign.active
  }
}

output "reports" {
  value = { status = cloudcost_scheduled_report.budget_status.id, feed = cloudcost_scheduled_report.eu_spend_feed.id }
}
