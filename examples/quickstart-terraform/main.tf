# The quickstart (examples/quickstart) in HCL: one Cloud Group, its monthly budget and a weekly report.
terraform {
  required_version = ">= 1.11" # write-only arguments (webhook_url_wo) need OpenTofu or Terraform 1.11+
  required_providers {
    cloudcost = { source = "cloudcost/cloudcost" }
  }
}

# Settings from the environment (CLOUDCOST_API_URL, CLOUDCOST_API_TOKEN): the token stays out of the
# configuration and out of state.
provider "cloudcost" {}

variable "owner" {
  description = "who receives the alert e-mails and the weekly report"
  type        = string
  default     = "finops@example.com"
}

resource "cloudcost_cloud_group" "web_shop" {
  name                   = "Web shop"
  description            = "Production accounts of the web shop"
  aws_account_ids        = ["111122223333"]
  azure_subscription_ids = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"]
}

resource "cloudcost_budget_alert" "web_shop_monthly" {
  name     = "Web shop monthly budget"
  group_id = cloudcost_cloud_group.web_shop.id
  amount   = 5000
  currency = "USD"
  period   = "monthly"
  thresholds = [
    { percent = 80, basis = "forecast" },
    { percent = 100, basis = "actual" },
  ]
  recipients = [var.owner]
}

resource "cloudcost_scheduled_report" "web_shop_weekly" {
  name     = "Web shop weekly cost by service"
  report   = "services"
  group_id = cloudcost_cloud_group.web_shop.id
  schedule = {
    frequency   = "weekly"
    day_of_week = "monday"
    time        = "08:00"
    timezone    = "Europe/Berlin"
  }
  format     = "csv"
  recipients = [var.owner]
}

output "group_id" { value = cloudcost_cloud_group.web_shop.id }
output "alert_id" { value = cloudcost_budget_alert.web_shop_monthly.id }
output "report_id" { value = cloudcost_scheduled_report.web_shop_weekly.id }
# What the service reports for the group right now (read at apply and on every refresh).
output "spend_this_month" { value = cloudcost_budget_alert.web_shop_monthly.current_spend }
output "forecast_this_month" { value = cloudcost_budget_alert.web_shop_monthly.forecasted_spend }
output "next_report_at" { value = cloudcost_scheduled_report.web_shop_weekly.next_run_at }
