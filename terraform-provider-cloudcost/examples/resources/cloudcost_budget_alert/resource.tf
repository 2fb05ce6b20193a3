resource "cloudcost_budget_alert" "web" {
  name     = "Web team monthly budget"
  group_id = var.group_id # a Cloud Group (grp_…); left out: the whole organization
  amount   = 5000
  currency = "USD"     # the default
  period   = "monthly" # the default; or quarterly, annual

  # Count only this spend (AND across keys, OR within one). Every list is a set.
  filters = {
    services = ["Amazon EC2", "Virtual Machines"]
    tags     = [{ key = "team", values = ["web"] }]
  }

  # Each threshold: exactly one of percent (of the period's effective_amount) and amount.
  thresholds = [
    { percent = 80, basis = "forecast", recipients = ["web-leads@example.com"] },
    { amount = 4500, basis = "actual", recipients = [] }, # [] = nobody: the webhook only
    { percent = 100, basis = "actual" },                  # left out: the alert's recipients
  ]
  recipients = ["finops@example.com"]

  # Write-only, from an ephemeral variable: reaches the service, never the state or a saved plan. A changed
  # URL is sent on the next apply.
  webhook_url_wo = var.alert_webhook_url

  # One source of amounts besides `amount`: planned_amounts for named periods, or auto_adjust from history.
  planned_amounts = [{ period_start = "2027-01-01", amount = 9000 }]
  start_date      = "2026-11-01"
}

variable "alert_webhook_url" {
  type      = string
  ephemeral = true # not `sensitive`: a saved plan stores a sensitive variable's value
}

variable "group_id" {
  type = string
}
