data "cloudcost_cost_by_service" "october" {
  from      = "2026-10-01"
  to        = "2026-10-31"
  providers = ["aws"]
  tag       = ["env=prod"]
}

output "october_by_service_items" {
  value = data.cloudcost_cost_by_service.october.items
}
