# A scheduled report is imported by its ID (or with an import block and `tofu plan -generate-config-out=…`).
# A webhook URL is sensitive: the generated configuration has `webhook_url = null # sensitive`; set it.
tofu import cloudcost_scheduled_report.weekly rpt_01j9z6w3k2m4n5p6q7r8
