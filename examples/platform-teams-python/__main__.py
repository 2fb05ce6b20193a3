"""examples/platform-teams in Python, on the native provider's SDK (pulumi_cloudcost): every team in stack config
(Pulumi.<stack>.yaml, key `teams`) gets a Cloud Group, a monthly budget alert and a weekly cost report."""

import re
from dataclasses import dataclass, field

import pulumi
import pulumi_cloudcost as cloudcost

config = pulumi.Config()
# Receives every team's alerts besides the team's owner (reports go to the owner only).
finops = config.get("finopsEmail") or "finops@example.com"
timezone = config.get("timezone") or "Europe/Berlin"

SLUG = re.compile(r"^[a-z][a-z0-9-]{1,30}$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")


@dataclass(frozen=True)
class Team:
    """One team as written in stack config; renaming a team replaces its resources (the name is in theirs)."""

    name: str
    owner: str
    monthly_budget: float
    aws_account_ids: list[str] = field(default_factory=list)
    azure_subscription_ids: list[str] = field(default_factory=list)
    report_day: str = "monday"


def read_teams() -> list[Team]:
    """The `teams` list, checked before anything is declared: every problem named with its path, then one error
    (a RunError: the message alone, without a traceback)."""
    raw = config.require_object("teams")
    problems: list[str] = []
    teams: list[Team] = []
    if not isinstance(raw, list) or not raw:
        raise pulumi.RunError("invalid stack config:\n  teams: must be a non-empty list")
    for i, entry in enumerate(raw):
        where = f"teams.{i}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: must be an object")
            continue
        name, owner = entry.get("name"), entry.get("owner")
        budget, day = entry.get("monthlyBudget"), entry.get("reportDay", "monday")
        if not isinstance(name, str) or not SLUG.match(name):
            problems.append(f"{where}.name: must be a lower-case slug such as storefront")
        if not isinstance(owner, str) or not EMAIL.match(owner):
            problems.append(f"{where}.owner: must be an e-mail address")
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or budget <= 0:
            problems.append(f"{where}.monthlyBudget: must be a number > 0")
        if day not in WEEKDAYS:
            problems.append(f"{where}.reportDay: must be one of {', '.join(WEEKDAYS)}")
        teams.append(
            Team(
                name=name,
                owner=owner,
                monthly_budget=budget,
                aws_account_ids=list(entry.get("awsAccountIds", [])),
                azure_subscription_ids=list(entry.get("azureSubscriptionIds", [])),
                report_day=day,
            )
        )
    names = [t.name for t in teams]
    if len(set(names)) != len(names):
        problems.append("teams: team names must be unique")
    if problems:
        raise pulumi.RunError("invalid stack config:\n  " + "\n  ".join(problems))
    return teams


def team_resources(team: Team) -> dict[str, pulumi.Output]:
    """A group, its monthly budget and its weekly report: what every team gets."""
    group = cloudcost.CloudGroup(
        f"{team.name}-group",
        name=f"Team {team.name}",
        description=f"Accounts of team {team.name} (owner: {team.owner})",
        aws_account_ids=team.aws_account_ids,
        azure_subscription_ids=team.azure_subscription_ids,
    )
    alert = cloudcost.BudgetAlert(
        f"{team.name}-budget",
        name=f"Team {team.name} monthly budget",
        group_id=group.id,
        amount=team.monthly_budget,
        thresholds=[
            cloudcost.BudgetAlertThresholdArgs(percent=90, basis="forecast"),
            cloudcost.BudgetAlertThresholdArgs(percent=100, basis="actual"),
        ],
        recipients=[team.owner, finops],
    )
    report = cloudcost.ScheduledReport(
        f"{team.name}-weekly",
        name=f"Team {team.name} weekly cost",
        report="comparison",
        group_id=group.id,
        schedule=cloudcost.ScheduledReportScheduleArgs(
            frequency="weekly", day_of_week=team.report_day, time="09:00", timezone=timezone
        ),
        recipients=[team.owner],
    )
    return {"groupId": group.id, "alertId": alert.id, "reportId": report.id, "spendThisMonth": alert.current_spend}


pulumi.export("teams", {team.name: team_resources(team) for team in read_teams()})
