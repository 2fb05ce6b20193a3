// The quickstart of examples/quickstart in Go, on the native provider's SDK
// (github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost).
package main

import (
	"github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// Who receives the alert e-mails and the weekly report.
		owner := config.Get(ctx, "owner")
		if owner == "" {
			owner = "finops@example.com"
		}

		// A Cloud Group is a named set of connected cloud accounts; these two are the sandbox's demo organization's.
		webShop, err := cloudcost.NewCloudGroup(ctx, "web-shop", &cloudcost.CloudGroupArgs{
			Name:                 pulumi.String("Web shop"),
			Description:          pulumi.String("Production accounts of the web shop"),
			AwsAccountIds:        pulumi.StringArray{pulumi.String("111122223333")},
			AzureSubscriptionIds: pulumi.StringArray{pulumi.String("0b1f6471-1bf0-4dda-aec3-cb9272f09590")},
		})
		if err != nil {
			return err
		}

		// Mails owner when the month's forecast reaches 80% of 5,000 USD, and again when actual spend reaches 100%.
		budget, err := cloudcost.NewBudgetAlert(ctx, "web-shop-monthly", &cloudcost.BudgetAlertArgs{
			Name:     pulumi.String("Web shop monthly budget"),
			GroupId:  webShop.ID().ToStringOutput(),
			Amount:   pulumi.Float64(5000),
			Currency: pulumi.String("USD"),
			Period:   pulumi.String("monthly"),
			Thresholds: cloudcost.BudgetAlertThresholdArray{
				cloudcost.BudgetAlertThresholdArgs{Percent: pulumi.Float64(80), Basis: pulumi.String("forecast")},
				cloudcost.BudgetAlertThresholdArgs{Percent: pulumi.Float64(100), Basis: pulumi.String("actual")},
			},
			Recipients: pulumi.StringArray{pulumi.String(owner)},
		})
		if err != nil {
			return err
		}

		// Cost per service of the group, every Monday at 08:00 Berlin time, as CSV.
		weekly, err := cloudcost.NewScheduledReport(ctx, "web-shop-weekly", &cloudcost.ScheduledReportArgs{
			Name:    pulumi.String("Web shop weekly cost by service"),
			Report:  pulumi.String("services"),
			GroupId: webShop.ID().ToStringOutput(),
			Schedule: cloudcost.ScheduledReportScheduleArgs{
				Frequency: pulumi.String("weekly"),
				DayOfWeek: pulumi.String("monday"),
				Time:      pulumi.String("08:00"),
				Timezone:  pulumi.String("Europe/Berlin"),
			},
			Format:     pulumi.String("csv"),
			Recipients: pulumi.StringArray{pulumi.String(owner)},
		})
		if err != nil {
			return err
		}

		ctx.Export("groupId", webShop.ID())
		ctx.Export("alertId", budget.ID())
		ctx.Export("reportId", weekly.ID())
		// What the service reports for the group right now (read at deploy and on every refresh).
		ctx.Export("spendThisMonth", budget.CurrentSpend)
		ctx.Export("forecastThisMonth", budget.ForecastedSpend)
		ctx.Export("nextReportAt", weekly.NextRunAt)
		return nil
	})
}
