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

const alertAddress = "cloudcost_budget_alert.web"

// The first configuration is written the way people write: a name with surrounding spaces, e-mail addresses
// in mixed case, an Azure subscription in upper case, an empty filter key. The service answers each in its
// own form; the plan after apply (the harness's) and after a refresh must still be empty.
const alertSpelled = header + `
provider "cloudcost" {}

resource "cloudcost_budget_alert" "web" {
  name     = "  Web team budget "
  amount   = 5000.5
  currency = "EUR"
  filters = {
    account_ids = ["0B1F6471-1BF0-4DDA-AEC3-CB9272F09590"]
    services    = []
    tags        = [{ key = "team", values = ["web", "data"] }]
  }
  thresholds = [
    { percent = 80, basis = "forecast", recipients = ["Web-Leads@Example.com"] },
    { amount = 4500, basis = "actual", recipients = [] },
    { percent = 100, basis = "actual" },
  ]
  recipients = ["FinOps@Example.com", " oncall@example.com"]
}
`

// The second changes almost every field: each updates in place (same id).
const alertChanged = header + `
provider "cloudcost" {}

resource "cloudcost_budget_alert" "web" {
  name     = "Web team budget"
  amount   = 6000
  currency = "EUR"
  period   = "quarterly"
  filters  = { providers = ["aws"], regions = ["eu-west-1"] }
  thresholds = [
    { percent = 100, basis = "actual" },
    { percent = 90, basis = "forecast" },
  ]
  planned_amounts = [
    { period_start = "2030-01-01", amount = 9000 },
    { period_start = "2030-04-01", amount = 7000 },
  ]
  start_date = "2026-01-15"
  end_date   = "2030-12-31"
  enabled    = false
}
`

const alertAutoAdjust = header + `
provider "cloudcost" {}

resource "cloudcost_budget_alert" "web" {
  name        = "Web team budget"
  amount      = 6000
  thresholds  = [{ percent = 100, basis = "actual" }]
  auto_adjust = { lookback_periods = 3 }
  recipients  = ["finops@example.com"]
}
`

func TestAccBudgetAlert(t *testing.T) {
	acceptance(t)
	sameID := statecheck.CompareValue(compare.ValuesSame())
	api := testAPI(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories(),
		CheckDestroy:             alertsGone(api),
		Steps: []resource.TestStep{
			{
				Config: alertSpelled,
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(alertAddress, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^alr_`))),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("name"), knownvalue.StringExact("  Web team budget ")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("effective_amount"), knownvalue.Float64Exact(5000.5)),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("effective_amount_source"), knownvalue.StringExact("amount")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("active"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("period"), knownvalue.StringExact("monthly")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("spend_currency"), knownvalue.NotNull()),
				},
				Check: alertOnService(api, func(a *client.BudgetAlert) error {
					if a.Name != "Web team budget" || !sameSet(a.Recipients, "finops@example.com", "oncall@example.com") ||
						a.Filters.AccountIDs[0] != "0b1f6471-1bf0-4dda-aec3-cb9272f09590" {
						return fmt.Errorf("the service holds %+v", a)
					}
					return nil
				}),
			},
			// A refresh of the respelled fields changes nothing either.
			{RefreshState: true},
			{
				Config: alertChanged,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(alertAddress, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(alertAddress, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("active"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("planned_amounts"), knownvalue.SetSizeExact(2)),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("recipients"), knownvalue.Null()),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("filters").AtMapKey("account_ids"), knownvalue.Null()),
				},
			},
			{
				Config: alertAutoAdjust,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(alertAddress, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(alertAddress, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("effective_amount_source"), knownvalue.StringExact("autoAdjust")),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("planned_amounts"), knownvalue.Null()),
					statecheck.ExpectKnownValue(alertAddress, tfjsonpath.New("filters"), knownvalue.Null()),
				},
			},
			// `tofu import`: the state it writes equals the managed one.
			{ResourceName: alertAddress, ImportState: true, ImportStateVerify: true},
			// An import block: the plan that imports it changes nothing.
			{ResourceName: alertAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithID},
			// -generate-config-out: the configuration OpenTofu writes plans with no changes.
			{ResourceName: alertAddress, ImportState: true, ImportStateKind: resource.ImportBlockWithID, GenerateConfig: true,
				Config: header + `provider "cloudcost" {}`},
			// Drift: a change made outside shows in a refresh; the next apply puts the configuration back.
			{
				PreConfig:          func() { changeAlertOutside(t, api) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(alertAddress, plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr(alertAddress, "name", "Renamed outside"),
			},
			{
				Config: alertAutoAdjust,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(alertAddress, plancheck.ResourceActionUpdate),
				}},
				Check: alertOnService(api, func(a *client.BudgetAlert) error {
					if a.Name != "Web team budget" || a.AutoAdjust == nil || a.Amount != 6000 {
						return fmt.Errorf("not restored: the service holds %+v", a)
					}
					return nil
				}),
			},
			// Deleted outside: the next plan creates it again.
			{
				PreConfig: func() { deleteAlertOutside(t, api) },
				Config:    alertAutoAdjust,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(alertAddress, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// Plan-time validation: what the contract states is refused before any request, on the attribute's path.
func TestAccBudgetAlertValidation(t *testing.T) {
	acceptance(t)
	cases := map[string]struct{ body, want string }{
		"three decimals":          {`amount = 10.005`, `amount: must have at most two decimal places`},
		"percent and amount":      {`amount = 10` + "\n" + `thresholds = [{ percent = 80, amount = 5, basis = "actual" }]`, `(?s)Invalid Attribute Combination`},
		"unknown service":         {`amount = 10` + "\n" + `filters = { services = ["EC2"] }`, `is not a service the`},
		"planned off period":      {`amount = 10` + "\n" + `planned_amounts = [{ period_start = "2030-01-15", amount = 5 }]`, `must be the first day of a monthly period`},
		"auto adjust and planned": {`amount = 10` + "\n" + `auto_adjust = { lookback_periods = 3 }` + "\n" + `planned_amounts = [{ period_start = "2030-01-01", amount = 5 }]`, `cannot be combined with planned_amounts`},
		"end before start":        {`amount = 10` + "\n" + `start_date = "2030-02-01"` + "\n" + `end_date = "2030-01-31"`, `must not be before start_date`},
		"plain http webhook":      {`amount = 10` + "\n" + `webhook_url = "http://example.com/hook"`, `plain http only to`},
		"duplicate recipients":    {`amount = 10` + "\n" + `recipients = ["a@example.com", "A@example.com "]`, `same e-mail address`},
		"unreal date":             {`amount = 10` + "\n" + `start_date = "2030-02-30"`, `is not a real calendar date`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			thresholds := `thresholds = [{ percent = 100, basis = "actual" }]`
			if regexp.MustCompile(`thresholds`).MatchString(c.body) {
				thresholds = ""
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: providerFactories(),
				Steps: []resource.TestStep{{
					Config:      header + fmt.Sprintf("provider \"cloudcost\" {}\nresource \"cloudcost_budget_alert\" \"bad\" {\n  name = \"bad\"\n  %s\n  %s\n}\n", c.body, thresholds),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(c.want),
				}},
			})
		})
	}
}

// A field error of the service (a group that does not exist: only the service knows) lands on the attribute.
func TestAccBudgetAlertServiceFieldError(t *testing.T) {
	acceptance(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories(),
		Steps: []resource.TestStep{{
			Config: header + `
provider "cloudcost" {}
resource "cloudcost_budget_alert" "bad" {
  name       = "bad"
  amount     = 10
  group_id   = "grp_0000000000000000000000"
  thresholds = [{ percent = 100, basis = "actual" }]
}`,
			// The diagnostic points at the group_id line of the configuration (OpenTofu quotes it).
			ExpectError: regexp.MustCompile(`(?s)with cloudcost_budget_alert\.bad,\s+on \S+ line \d+, in resource "cloudcost_budget_alert" "bad":\s+\d+:\s+group_id\s+= "grp_0+".*group_id: .*\(unknown_group;\s+request\s+id\s+req_`),
		}},
	})
}

func alertOnService(api *client.Client, check func(*client.BudgetAlert) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a, err := api.GetAlert(context.Background(), s.RootModule().Resources[alertAddress].Primary.ID)
		if err != nil {
			return err
		}
		return check(a)
	}
}

func alertsGone(api *client.Client) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for _, r := range s.RootModule().Resources {
			if r.Type != "cloudcost_budget_alert" {
				continue
			}
			if _, err := api.GetAlert(context.Background(), r.Primary.ID); !client.IsNotFound(err) {
				return fmt.Errorf("alert %s still exists after destroy (%v)", r.Primary.ID, err)
			}
		}
		return nil
	}
}

// onlyAlert is the alert TestAccBudgetAlert manages (other tests of the package share the organization).
func onlyAlert(t *testing.T, api *client.Client) client.BudgetAlert {
	t.Helper()
	alerts, err := api.ListAlerts(context.Background())
	var found []client.BudgetAlert
	for _, a := range alerts {
		if a.Name == "Web team budget" || a.Name == "Renamed outside" {
			found = append(found, a)
		}
	}
	if err != nil || len(found) != 1 {
		t.Fatalf("expected one alert named Web team budget, got %d (%v)", len(found), err)
	}
	return found[0]
}

// testAPI calls the sandbox directly, beside the provider (changes made outside, what the service holds).
func testAPI(t *testing.T) *client.Client {
	c, err := client.New(client.Options{BaseURL: sandbox.apiURL, APIToken: sandbox.token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameSet: the list holds exactly these values, in any order.
func sameSet(list []string, values ...string) bool {
	if len(list) != len(values) {
		return false
	}
	seen := map[string]bool{}
	for _, v := range list {
		seen[v] = true
	}
	for _, v := range values {
		if !seen[v] {
			return false
		}
	}
	return true
}

func changeAlertOutside(t *testing.T, api *client.Client) {
	a := onlyAlert(t, api)
	if _, err := api.ReplaceAlert(context.Background(), a.ID, client.AlertInput{
		Name: "Renamed outside", Amount: 1, Currency: a.Currency, Period: a.Period, Thresholds: a.Thresholds,
	}); err != nil {
		t.Fatal(err)
	}
}

func deleteAlertOutside(t *testing.T, api *client.Client) {
	if err := api.DeleteAlert(context.Background(), onlyAlert(t, api).ID); err != nil {
		t.Fatal(err)
	}
}
