// examples/platform-teams in Go, on the native provider's SDK: every team in stack config (Pulumi.<stack>.yaml,
// key `teams`) gets a Cloud Group, a monthly budget alert and a weekly cost report.
package main

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// team is one team as written in stack config; renaming a team replaces its resources (the name is in theirs).
type team struct {
	Name                 string   `json:"name"`
	Owner                string   `json:"owner"`
	MonthlyBudget        float64  `json:"monthlyBudget"`
	AwsAccountIds        []string `json:"awsAccountIds"`
	AzureSubscriptionIds []string `json:"azureSubscriptionIds"`
	ReportDay            string   `json:"reportDay"`
}

var (
	slug     = regexp.MustCompile(`^[a-z][a-z0-9-]{1,30}$`)
	email    = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday"}
)

// readTeams reads the `teams` list and checks it before anything is declared: every problem named with its path.
func readTeams(ctx *pulumi.Context) ([]team, error) {
	var teams []team
	if err := config.TryObject(ctx, "teams", &teams); err != nil {
		return nil, fmt.Errorf("invalid stack config: teams: %w", err)
	}
	var problems []string
	seen := map[string]bool{}
	for i := range teams {
		t := &teams[i]
		if t.ReportDay == "" {
			t.ReportDay = "monday"
		}
		if !slug.MatchString(t.Name) {
			problems = append(problems, fmt.Sprintf("teams.%d.name: must be a lower-case slug such as storefront", i))
		}
		if !email.MatchString(t.Owner) {
			problems = append(problems, fmt.Sprintf("teams.%d.owner: must be an e-mail address", i))
		}
		if t.MonthlyBudget <= 0 {
			problems = append(problems, fmt.Sprintf("teams.%d.monthlyBudget: must be a number > 0", i))
		}
		if !slices.Contains(weekdays, t.ReportDay) {
			problems = append(problems, fmt.Sprintf("teams.%d.reportDay: must be one of %s", i, strings.Join(weekdays, ", ")))
		}
		if seen[t.Name] {
			problems = append(problems, "teams: team names must be unique")
		}
		seen[t.Name] = true
	}
	if len(teams) == 0 {
		problems = append(problems, "teams: must be a non-empty list")
	}
	if len(problems) > 0 {
		return nil, errors.New("invalid stack config:\n  " + strings.Join(problems, "\n  "))
	}
	return teams, nil
}

func stringArray(values []string) pulumi.StringArray {
	out := pulumi.StringArray{}
	for _, v := range values {
		out = append(out, pulumi.String(v))
	}
	return out
}

// teamResources declares a group, its monthly budget and its weekly report: what every team gets.
func teamResources(ctx *pulumi.Context, t team, finops, timezone string) (pulumi.Map, error) {
	group, err := cloudcost.NewCloudGroup(ctx, t.Name+"-group", &cloudcost.CloudGroupArgs{
		Name:                 pulumi.String("Team " + t.Name),
		Description:          pulumi.Sprintf("Accounts of team %s (owner: %s)", t.Name, t.Owner),
		AwsAccountIds:        stringArray(t.AwsAccountIds),
		AzureSubscriptionIds: stringArray(t.AzureSubscriptionIds),
	})
	if err != nil {
		return nil, err
	}
	alert, err := cloudcost.NewBudgetAlert(ctx, t.Name+"-budget", &cloudcost.BudgetAlertArgs{
		Name:    pulumi.String("Team " + t.Name + " monthly budget"),
		GroupId: group.ID().ToStringOutput(),
		Amount:  pulumi.Float64(t.MonthlyBudget),
		Thresholds: cloudcost.BudgetAlertThresholdArray{
			cloudcost.BudgetAlertThresholdArgs{Percent: pulumi.Float64(90), Basis: pulumi.String("forecast")},
			cloudcost.BudgetAlertThresholdArgs{Percent: pulumi.Float64(100), Basis: pulumi.String("actual")},
		},
		Recipients: stringArray([]string{t.Owner, finops}),
	})
	if err != nil {
		return nil, err
	}
	report, err := cloudcost.NewScheduledReport(ctx, t.Name+"-weekly", &cloudcost.ScheduledReportArgs{
		Name:    pulumi.String("Team " + t.Name + " weekly cost"),
		Report:  pulumi.String("comparison"),
		GroupId: group.ID().ToStringOutput(),
		Schedule: cloudcost.ScheduledReportScheduleArgs{
			Frequency: pulumi.String("weekly"),
			DayOfWeek: pulumi.String(t.ReportDay),
			Time:      pulumi.String("09:00"),
			Timezone:  pulumi.String(timezone),
		},
		Recipients: stringArray([]string{t.Owner}),
	})
	if err != nil {
		return nil, err
	}
	return pulumi.Map{
		"groupId":        group.ID(),
		"alertId":        alert.ID(),
		"reportId":       report.ID(),
		"spendThisMonth": alert.CurrentSpend,
	}, nil
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Receives every team's alerts besides the team's owner (reports go to the owner only).
		finops := config.Get(ctx, "finopsEmail")
		if finops == "" {
			finops = "finops@example.com"
		}
		timezone := config.Get(ctx, "timezone")
		if timezone == "" {
			timezone = "Europe/Berlin"
		}
		teams, err := readTeams(ctx)
		if err != nil {
			return err
		}
		exported := pulumi.Map{}
		for _, t := range teams {
			if exported[t.Name], err = teamResources(ctx, t, finops, timezone); err != nil {
				return err
			}
		}
		ctx.Export("teams", exported)
		return nil
	})
}
