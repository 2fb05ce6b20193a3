# A budget alert is imported by its ID (or with an import block: `import { to = cloudcost_budget_alert.web
# id = "alr_…" }`, and `tofu plan -generate-config-out=generated.tf` writes its configuration). A webhook URL
# is sensitive, so the generated configuration has `webhook_url = null # sensitive`: set it (or webhook_url_wo).
tofu import cloudcost_budget_alert.web alr_01j9z6w3k2m4n5p6q7r8
