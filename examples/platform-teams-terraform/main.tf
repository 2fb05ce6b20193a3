# Platform teams (examples/platform-teams) in HCL: every team in `var.teams` gets a Cloud Group, a monthly
# budget and a weekly report. Add a team to terraform.tfvars and `tofu apply` creates its three resources;
# remove it and they go.
terraform {
  required_version = ">= 1.11"
  required_providers {
    cloudcost = { source = "cloudcost/cloudcost" }
  }
}

provider "cloudcost" {}

variable "teams" {
  description = "the teams, keyed by a lower-case slug (it becomes part of resource addresses: renaming a team replaces its resources)"
  type = map(object({
    owner                  = string
    monthly_budget         = number
    aws_account_ids        = optional(set(string), [])
    azure_subscription_ids = optional(set(string), [])
    report_day             = optional(string, "monday")
  }))
  validation {
    condition     = length(var.teams) > 0 && alltrue([for name, _ in var.teams : can(regex("^[a-z][a-z0-9-]{1,30}$", name))])
    error_message = "Give at least one team, each keyed by a lower-case slug such as storefront."
  }
  validation {
    condition     = alltrue([for t in values(var.teams) : contains(["monday", "tuesday", "wednesday", "thursday", "friday"], t.report_day)])
    error_message = "report_day must be a weekday, monday to friday."
  }
}

variable "finops_email" {
  description = "receives every team's alerts besides the team's owner (reports go to the owner only)"
  type        = string
  default     = "finops@example.com"
}

variable "timezone" {
  type    = string
  default = "Europe/Berlin"
}

resource "cloudcost_cloud_group" "team" {
  for_each               = var.teams
  name                   = "Team ${each.key}"
  description            = "Accounts of team ${each.key} (owner: ${each.value.owner})"
  aws_account_ids        = each.value.aws_account_ids
  azure_subscription_ids = each.value.azure_subscription_ids
}

resource "cloudcost_budget_alert" "team" {
  for_each = var.teams
  name     = "Team ${each.key} monthly budget"
  group_id = cloudcost_cloud_group.team[each.key].id
  amount   = each.value.monthly_budget
  thresholds = [
    { percent = 90, basis = "forecast" },
    { percent = 100, basis = "actual" },
  ]
  recipients = [each.value.owner, var.finops_email]
}

resource "cloudcost_scheduled_report" "team" {
  for_each = var.teams
  name     = "Team ${each.key} weekly cost"
  report   = "comparison"
  group_id = cloudcost_cloud_group.team[each.key].id
  schedule = {
    frequency   = "weekly"
    day_of_week = each.value.report_day
    time        = "09:00"
    timezone    = var.timezone
  }
  recipients = [each.value.owner]
}

output "teams" {
  value = {
    for name, _ in var.teams : name => {
      group_id         = cloudcost_cloud_group.team[name].id
      alert_id         = cloudcost_budget_alert.team[name].id
      report_id        = cloudcost_scheduled_report.team[name].id
      spend_this_month = cloudcost_budget_alert.team[name].current_spend
    }
  }
}
