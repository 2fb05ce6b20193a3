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

# A spend feed: every run POSTed to a webhook as a signed event; the URL write-only.
resource "cloudcost_scheduled_report" "feed" {
  name                   = "Daily spend feed"
  report                 = "daily"
  schedule               = { frequency = "daily", time = "06:00", timezone = "UTC" }
  webhook_url_wo         = var.feed_webhook_url
  webhook_url_wo_version = 1
}

variable "feed_webhook_url" {
  type      = string
  sensitive = true
}

variable "group_id" {
  type = string
}
