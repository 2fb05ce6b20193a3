"""The quickstart of examples/quickstart in Python, on the native provider's SDK (pulumi_cloudcost)."""

import pulumi
import pulumi_cloudcost as cloudcost

config = pulumi.Config()
# Who receives the alert e-mails and the weekly report.
owner = config.get("owner") or "finops@example.com"

# A Cloud Group is a named set of connected cloud accounts; these two are the sandbox's demo organization's.
web_shop = cloudcost.CloudGroup(
    "web-shop",
    name="Web shop",
    description="Production accounts of the web shop",
    aws_account_ids=["111122223333"],
    azure_subscription_ids=["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
)

# Mails `owner` when the month's forecast reaches 80% of 5,000 USD, and again when actual spend reaches 100%.
budget = cloudcost.BudgetAlert(
    "web-shop-monthly",
    name="Web shop monthly budget",
    group_id=web_shop.id,
    amount=5000,
    currency="USD",
    period="monthly",
    thresholds=[
        cloudcost.BudgetAlertThresholdArgs(percent=80, basis="forecast"),
        cloudcost.BudgetAlertThresholdArgs(percent=100, basis="actual"),
    ],
    recipients=[owner],
)

# Cost per service of the group, every Monday at 08:00 Berlin time, as CSV.
weekly = cloudcost.ScheduledReport(
    "web-shop-weekly",
    name="Web shop weekly cost by service",
    report="services",
    group_id=web_shop.id,
    schedule=cloudcost.ScheduledReportScheduleArgs(
        frequency="weekly", day_of_week="monday", time="08:00", timezone="Europe/Berlin"
    ),
    format="csv",
    recipients=[owner],
)

pulumi.export("groupId", web_shop.id)
pulumi.export("alertId", budget.id)
pulumi.export("reportId", weekly.id)
# What the service reports for the group right now (read at deploy and on every refresh).
pulumi.export("spendThisMonth", budget.current_spend)
pulumi.export("forecastThisMonth", budget.forecasted_spend)
pulumi.export("nextReportAt", weekly.next_run_at)
