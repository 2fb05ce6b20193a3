data "cloudcost_cost_comparison" "october" {
  from      = "2026-10-01"
  to        = "2026-10-31"
  providers = ["aws"]
  tag       = ["env=prod"]
}

output "october_comparison_change_percent" {
  value = data.cloudcost_cost_comparison.october.change_percent
}
