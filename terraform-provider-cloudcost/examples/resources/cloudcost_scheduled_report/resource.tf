resource "cloudcost_scheduled_report" "weekly" {
  name     = "Weekly cost by service"
  report   = "services" # summary, services, daily, forecast, comparison or budget_status
  group_id = var.group_id
  filters  = { regions = ["eu-west-1", "westeurope"] } # none for budget_status
  schedule = {
    frequency   = "weekly" # daily (no day), weekly (day_of_week) or monthly (day_of_month)
    day_of_week = "monday"
    time        = "08:00"
    timezone    = "Europe/Berlin"
  }
  format     = "csv"
  recipients = ["finops@example.com"]
}

# A spend feed: every run POSTed to a webhook as a signed event. The URL is write-only and the variable
# ephemeral (OpenTofu 1.11+): it reaches the service, never the state or a saved plan. A changed URL is sent
# on the next apply.
resource "cloudcost_scheduled_report" "feed" {
  name           = "Daily spend feed"
  report         = "daily"
  schedule       = { frequency = "daily", time = "06:00", timezone = "UTC" }
  webhook_url_wo = var.feed_webhook_url
}

variable "feed_webhook_url" {
  type      = string
  ephemeral = true # not `sensitive`: a saved plan stores a sensitive variable's value
}

variable "group_id" {
  type = string
}
