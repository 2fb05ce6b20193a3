# A scheduled report is imported by its ID (or with an import block and `tofu plan -generate-config-out=…`).
# The import never stores its webhook URL in the state. A report with a webhook plans with a warning ("A webhook
# to name") and is generated with `webhook_url_wo_version = 1`: set `webhook_url_wo` (an ephemeral variable) there.
# A configuration with the plain `webhook_url` imports `<id>:webhook_url`, which stores the URL in the state.
tofu import cloudcost_scheduled_report.weekly rpt_01j9z6w3k2m4n5p6q7r8
