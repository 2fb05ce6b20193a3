# A budget alert is imported by its ID (or with an import block: `import { to = cloudcost_budget_alert.web
# id = "alr_…" }`, and `tofu plan -generate-config-out=generated.tf` writes its configuration). The import never
# stores its webhook URL in the state. An alert with a webhook plans with a warning ("A webhook to name") and is
# generated with `webhook_url_wo_version = 1`: set `webhook_url_wo` (an ephemeral variable) there.
# A configuration with the plain `webhook_url` imports `<id>:webhook_url`, which stores the URL in the state.
tofu import cloudcost_budget_alert.web alr_01j9z6w3k2m4n5p6q7r8
