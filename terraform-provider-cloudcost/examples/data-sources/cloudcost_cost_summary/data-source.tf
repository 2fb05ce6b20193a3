data "cloudcost_cost_summary" "october" {
  from      = "2026-10-01"
  to        = "2026-10-31"
  providers = ["aws"]
  tag       = ["env=prod"]
}

output "october_summary_total" {
  value = data.cloudcost_cost_summary.october.total
}
