data "cloudcost_cost_by_day" "october" {
  from      = "2026-10-01"
  to        = "2026-10-31"
  providers = ["aws"]
  tag       = ["env=prod"]
}

output "october_by_day_days" {
  value = data.cloudcost_cost_by_day.october.days
}
