package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const (
	subscription      = "0b1f6471-1bf0-4dda-aec3-cb9272f09590"
	subscriptionUpper = "0B1F6471-1BF0-4DDA-AEC3-CB9272F09590"
)

func groupConfig(name, description string, aws string) string {
	return groupConfigAzure(name, description, aws, subscription)
}

func groupConfigAzure(name, description, aws, azure string) string {
	return header + fmt.Sprintf(`
resource "cloudcost_cloud_group" "g" {
  name            = %q
  description     = %q
  aws_account_ids = [%s]
  azure_subscription_ids = [%q]
}
`, name, description, aws, azure)
}

// groupAsStored is the group as the service holds it.
func groupAsStored(t *testing.T, id string) (name string, azure []string) {
	t.Helper()
	var g struct {
		Name    string
		Members []struct{ Provider, AccountID string }
	}
	if status := sandbox.api(t, "GET", "/groups/"+id, nil, &g); status != 200 {
		t.Fatalf("reading the group: %d", status)
	}
	for _, m := range g.Members {
		if m.Provider == "azure" {
			azure = append(azure, m.AccountID)
		}
	}
	return g.Name, azure
}

const groupAddress = "cloudcost_cloud_group.g"

// The resource's life with OpenTofu: create, the plan after apply empty, update in place, drift shown and
// restored, import by import block with generated configuration planning no changes, destroy. The first
// configuration is written the way people write: a name with surrounding spaces, an Azure subscription in
// upper case. The service answers both in its own form; state keeps what was written, so the plan after
// apply and after a refresh are empty, and a change made outside still shows.
func TestAccCloudGroup(t *testing.T) {
	acceptance(t)
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories(),
		CheckDestroy: func(s *terraform.State) error {
			if ids := sandbox.groupsNamed(t, "tfacc-platform-renamed"); len(ids) != 0 {
				return fmt.Errorf("still in the service after destroy: %v", ids)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				// Order and duplicates of a set never show as a diff.
				Config: groupConfigAzure("  tfacc-platform ", "first", `"444455556666", "111122223333", "111122223333"`, subscriptionUpper),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(groupAddress, plancheck.ResourceActionCreate)},
					// terraform-plugin-testing also fails the step when the plan after apply is not empty.
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^grp_`))),
					statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("name"), knownvalue.StringExact("  tfacc-platform ")),
					statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("aws_account_ids"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("111122223333"), knownvalue.StringExact("444455556666")})),
					statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("azure_subscription_ids"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(subscriptionUpper)})),
					statecheck.ExpectKnownValue(groupAddress, tfjsonpath.New("source"), knownvalue.StringExact("api")),
				},
				Check: func(s *terraform.State) error {
					id = s.RootModule().Resources[groupAddress].Primary.ID
					// The service holds its own form: what state keeps is the spelling, not another value.
					if name, azure := groupAsStored(t, id); name != "tfacc-platform" || len(azure) != 1 || azure[0] != subscription {
						return fmt.Errorf("the service should hold the trimmed name and the lower-case ID, holds %q %v", name, azure)
					}
					return nil
				},
			},
			{
				// A refresh of the written spelling changes nothing.
				RefreshState:      true,
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(groupAddress, "name", "  tfacc-platform "),
					resource.TestCheckTypeSetElemAttr(groupAddress, "azure_subscription_ids.*", subscriptionUpper),
				),
			},
			{
				// `tofu import` has nothing written to keep: the state it writes holds the service's form.
				ResourceName: groupAddress,
				ImportState:  true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("imported %d objects", len(states))
					}
					a := states[0].Attributes
					if a["name"] != "tfacc-platform" || a["azure_subscription_ids.#"] != "1" || a["azure_subscription_ids.0"] != subscription {
						return fmt.Errorf("imported name %q, subscriptions %q %q", a["name"], a["azure_subscription_ids.#"], a["azure_subscription_ids.0"])
					}
					return nil
				},
			},
			{
				// A change made outside still shows behind the written spelling: renamed, the subscription removed.
				PreConfig: func() {
					if status := sandbox.api(t, "PATCH", "/groups/"+id, map[string]string{"name": "tfacc-platform-outside"}, nil); status != 200 {
						t.Fatalf("renaming the group outside: %d", status)
					}
					members := []map[string]string{{"provider": "aws", "accountId": "111122223333"}, {"provider": "aws", "accountId": "444455556666"}}
					if status := sandbox.api(t, "PUT", "/groups/"+id+"/members", map[string]any{"members": members}, nil); status != 200 {
						t.Fatalf("changing the members outside: %d", status)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(groupAddress, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(groupAddress, "name", "tfacc-platform-outside"),
					resource.TestCheckResourceAttr(groupAddress, "azure_subscription_ids.#", "0"),
				),
			},
			{
				// Apply puts the written configuration back; the plan after it is empty again.
				Config: groupConfigAzure("  tfacc-platform ", "first", `"444455556666", "111122223333"`, subscriptionUpper),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(groupAddress, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(s *terraform.State) error {
					if name, azure := groupAsStored(t, id); name != "tfacc-platform" || len(azure) != 1 || azure[0] != subscription {
						return fmt.Errorf("apply should restore the group, the service holds %q %v", name, azure)
					}
					return nil
				},
			},
			{
				// Writing the service's own spelling instead is an update in Terraform's eyes (the configuration
				// changed) but no change to the service: nothing is sent but a read.
				PreConfig: sandbox.resetCounts,
				Config:    groupConfig("tfacc-platform", "first", `"444455556666", "111122223333"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(groupAddress, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(s *terraform.State) error {
					for request := range sandbox.snapshot() {
						if strings.HasPrefix(request, "PATCH ") || strings.HasPrefix(request, "PUT ") || strings.HasPrefix(request, "POST ") {
							return fmt.Errorf("a respelling sent %s", request)
						}
					}
					return nil
				},
			},
			{
				// Name, description and members change in place: same ID.
				Config: groupConfig("tfacc-platform-renamed", "second", `"777788889999"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("cloudcost_cloud_group.g", plancheck.ResourceActionUpdate)},
				},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources["cloudcost_cloud_group.g"].Primary.ID; got != id {
						return fmt.Errorf("updated in place should keep %s, got %s", id, got)
					}
					return nil
				},
			},
			{
				// Drift: changed outside; the plan shows it as an update in place and apply restores it.
				PreConfig: func() {
					if status := sandbox.api(t, "PATCH", "/groups/"+id, map[string]string{"description": "changed in the portal"}, nil); status != 200 {
						t.Fatalf("changing the group outside: %d", status)
					}
				},
				Config: groupConfig("tfacc-platform-renamed", "second", `"777788889999"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("cloudcost_cloud_group.g", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("cloudcost_cloud_group.g", tfjsonpath.New("description"), knownvalue.StringExact("second")),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("cloudcost_cloud_group.g", tfjsonpath.New("description"), knownvalue.StringExact("second")),
				},
			},
			{
				// Import by an import block, configuration generated by `plan -generate-config-out`: the import
				// must plan no changes (the framework fails the step otherwise).
				ResourceName:    "cloudcost_cloud_group.g",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				GenerateConfig:  true,
				Config:          header,
			},
			{
				// `tofu import` by ID, then every attribute as it was.
				Config:            groupConfig("tfacc-platform-renamed", "second", `"777788889999"`),
				ResourceName:      "cloudcost_cloud_group.g",
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}

// Plan-time validation of what the contract states: nothing reaches the service.
func TestAccCloudGroupValidation(t *testing.T) {
	acceptance(t)
	for _, c := range []struct{ config, says string }{
		{groupConfig("   ", "", ""), "must not be blank"},
		{groupConfig("  "+strings.Repeat("n", 101)+" ", "", ""), "must be at most 100 characters after trimming surrounding whitespace (got 101)"},
		{groupConfig("x", "", `"12345"`), "must be a 12-digit AWS account ID"},
		{groupConfigAzure("x", "", "", "0B1F6471-1BF0-4DDA-AEC3"), "must be an Azure subscription ID (a GUID)"},
		// Characters are code points, as the service counts them (issue 37): 501 emoji are too many, 500 are not
		// (values_and_errors_test.go applies them).
		{groupConfig("x", strings.Repeat("\U0001F4B0", 501), ""), "must be at most 500 characters (got 501)"},
	} {
		sandbox.resetCounts()
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: providerFactories(),
			// Messages wrap at any space.
			Steps: []resource.TestStep{{Config: c.config, PlanOnly: true,
				ExpectError: regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(c.says), " ", `\s+`))}},
		})
		if n := sandbox.snapshot(); len(n) != 0 {
			t.Errorf("validation sent requests: %v", n)
		}
	}
}

// An API field error becomes a diagnostic on the attribute it names.
func TestAccCloudGroupFieldErrorOnItsAttribute(t *testing.T) {
	acceptance(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories(),
		Steps: []resource.TestStep{{
			Config:      groupConfig("tfacc-unknown-account", "", `"999999999999"`),
			ExpectError: regexp.MustCompile(`(?s)aws_account_ids: aws account 999999999999 is\s+not\s+connected\s+to\s+this\s+organization\s+\(unknown_account;`),
		}},
	})
	if ids := sandbox.groupsNamed(t, "tfacc-unknown-account"); len(ids) != 0 {
		t.Errorf("a failed create must leave nothing behind, found %v", ids)
	}
}
