package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

const reportAddress = "cloudcost_scheduled_report.feed"

// A spend feed whose URL is write-only: it reaches the service, never the state.
const reportWriteOnly = header + `
provider "cloudcost" {}

resource "cloudcost_scheduled_report" "feed" {
  name     = " EU spend feed "
  report   = "services"
  filters  = { regions = ["westeurope", "eu-west-1"], providers = ["aws", "azure"] }
  schedule = { frequency = "daily", time = "06:00", timezone = "UTC" }
  recipients = ["FinOps@Example.com"]
  webhook_url_wo         = "http://127.0.0.1:8787/cost-feed"
  webhook_url_wo_version = 1
}
`

const reportChanged = header + `
provider "cloudcost" {}

resource "cloudcost_scheduled_report" "feed" {
  name       = "Budget status"
  report     = "budget_status"
  schedule   = { frequency = "monthly", day_of_month = 31, time = "07:30", timezone = "Europe/Berlin" }
  format     = "pdf"
  recipients = ["finops@example.com", "cfo@example.com"]
  enabled    = false
}
`

func TestAccScheduledReport(t *testing.T) {
	acceptance(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	api := testAPI(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories(),
		CheckDestroy:             reportsGone(api),
		Steps: []resource.TestStep{
			{
				Config: reportWriteOnly,
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(reportAddress, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^rpt_`))),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("webhook_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("webhook_url_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("format"), knownvalue.StringExact("csv")),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("next_run_at"), knownvalue.NotNull()),
				},
				Check: reportOnService(api, func(r *client.ScheduledReport) error {
					if r.WebhookURL == nil || *r.WebhookURL != "http://127.0.0.1:8787/cost-feed" || r.Name != "EU spend feed" {
						return fmt.Errorf("the service holds %+v", r)
					}
					return nil
				}),
			},
			{RefreshState: true},
			{
				Config: reportChanged,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(reportAddress, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(reportAddress, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("next_run_at"), knownvalue.Null()),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("filters"), knownvalue.Null()),
					statecheck.ExpectKnownValue(reportAddress, tfjsonpath.New("schedule").AtMapKey("day_of_month"), knownvalue.Int64Exact(31)),
				},
				// The PUT carries every field: leaving the write-only URL out removed the webhook.
				Check: reportOnService(api, func(r *client.ScheduledReport) error {
					if r.WebhookURL != nil || r.Report != "budget_status" {
						return fmt.Errorf("the service holds %+v", r)
					}
					return nil
				}),
			},
			{ResourceName: reportAddress, ImportState: true, ImportStateVerify: true},
			{ResourceName: reportAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			{ResourceName: reportAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true,
				Config: header + `provider "cloudcost" {}`},
			{
				PreConfig:          func() { changeReportOutside(t, api) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(reportAddress, plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr(reportAddress, "schedule.frequency", "daily"),
			},
			{
				Config: reportChanged,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(reportAddress, plancheck.ResourceActionUpdate),
				}},
				Check: reportOnService(api, func(r *client.ScheduledReport) error {
					if r.Schedule.Frequency != "monthly" || r.Format != "pdf" {
						return fmt.Errorf("not restored: the service holds %+v", r)
					}
					return nil
				}),
			},
		},
	})
}

func TestAccScheduledReportValidation(t *testing.T) {
	acceptance(t)
	cases := map[string]struct{ body, want string }{
		"weekly without day":    {`schedule = { frequency = "weekly", time = "08:00", timezone = "UTC" }` + "\n" + `recipients = ["a@example.com"]`, `required for weekly`},
		"daily with day":        {`schedule = { frequency = "daily", day_of_month = 3, time = "08:00", timezone = "UTC" }` + "\n" + `recipients = ["a@example.com"]`, `only allowed for monthly`},
		"bad time":              {`schedule = { frequency = "daily", time = "24:00", timezone = "UTC" }` + "\n" + `recipients = ["a@example.com"]`, `HH:MM`},
		"bad timezone":          {`schedule = { frequency = "daily", time = "08:00", timezone = "Mars/Olympus" }` + "\n" + `recipients = ["a@example.com"]`, `IANA time-zone`},
		"nobody":                {`schedule = { frequency = "daily", time = "08:00", timezone = "UTC" }`, `at least one address`},
		"budget_status filters": {`schedule = { frequency = "daily", time = "08:00", timezone = "UTC" }` + "\n" + `recipients = ["a@example.com"]` + "\n" + `filters = { providers = ["aws"] }`, `must be empty for`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			kind := "summary"
			if name == "budget_status filters" {
				kind = "budget_status"
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: providerFactories(),
				Steps: []resource.TestStep{{
					Config:      header + fmt.Sprintf("provider \"cloudcost\" {}\nresource \"cloudcost_scheduled_report\" \"bad\" {\n  name = \"bad\"\n  report = %q\n  %s\n}\n", kind, c.body),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(c.want),
				}},
			})
		})
	}
}

func reportOnService(api *client.Client, check func(*client.ScheduledReport) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		r, err := api.GetReport(context.Background(), s.RootModule().Resources[reportAddress].Primary.ID)
		if err != nil {
			return err
		}
		return check(r)
	}
}

func reportsGone(api *client.Client) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, r := range s.RootModule().Resources {
			if r.Type != "cloudcost_scheduled_report" {
				continue
			}
			if _, err := api.GetReport(context.Background(), r.Primary.ID); !client.IsNotFound(err) {
				return fmt.Errorf("report %s still exists after destroy (%v)", r.Primary.ID, err)
			}
		}
		return nil
	}
}

func changeReportOutside(t *testing.T, api *client.Client) {
	all, err := api.ListReports(context.Background())
	var reports []client.ScheduledReport
	for _, r := range all {
		if r.Name == "Budget status" {
			reports = append(reports, r)
		}
	}
	if err != nil || len(reports) != 1 {
		t.Fatalf("expected one report named Budget status, got %d (%v)", len(reports), err)
	}
	r := reports[0]
	if _, err := api.ReplaceReport(context.Background(), r.ID, client.ReportInput{
		Name: r.Name, Report: "summary", Schedule: client.Schedule{Frequency: "daily", Time: "09:00", Timezone: "UTC"}, Recipients: r.Recipients,
	}); err != nil {
		t.Fatal(err)
	}
}
