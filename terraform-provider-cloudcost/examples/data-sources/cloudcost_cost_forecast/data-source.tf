data "cloudcost_cost_forecast" "october" {
  from      = "2026-10-01"
  to        = "2026-10-31"
  providers = ["aws"]
  tag       = ["env=prod"]
}

output "october_forecast_total" {
  value = data.cloudcost_cost_forecast.october.total
}
