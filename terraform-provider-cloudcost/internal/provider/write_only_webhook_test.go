package provider_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// The write-only promise of webhook_url_wo, through the real `tofu` (issues 37 §2 and 38): the URL never in a
// state file or a saved plan (import included), a changed URL sent without a version to bump, generated
// configuration that plans and says which objects have a webhook to name.

// secretURL is a webhook URL no other test uses, with a part to grep for.
func secretURL(t *testing.T, what string) string {
	return fmt.Sprintf("https://hooks.example.com/%s/s3cr3t-%d", what, time.Now().UnixNano())
}

// leaks lists where secret is found in a file tofu wrote: its bytes, and for a saved plan (a zip archive)
// every member's bytes too (they are compressed in the file).
func leaks(t *testing.T, file, secret string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	if bytes.Contains(data, []byte(secret)) {
		found = append(found, filepath.Base(file))
	}
	if archive, err := zip.NewReader(bytes.NewReader(data), int64(len(data))); err == nil {
		for _, member := range archive.File {
			r, err := member.Open()
			if err != nil {
				t.Fatal(err)
			}
			content, _ := io.ReadAll(r)
			r.Close()
			if bytes.Contains(content, []byte(secret)) {
				found = append(found, filepath.Base(file)+"/"+member.Name)
			}
		}
	}
	return found
}

// mustNotHold fails the test when the saved plan (its bytes and `tofu show -json`) or the state holds secret.
func (d *tofuDir) mustNotHold(t *testing.T, secret string, plan string) {
	t.Helper()
	if plan != "" {
		if found := leaks(t, filepath.Join(d.dir, plan), secret); len(found) > 0 {
			t.Errorf("the saved plan holds the webhook URL in %v", found)
		}
		if shown := d.mustRun(t, "show", "-json", plan); strings.Contains(shown, secret) {
			t.Errorf("`tofu show -json %s` shows the webhook URL", plan)
		}
	}
	if state := filepath.Join(d.dir, "terraform.tfstate"); fileExists(state) {
		if found := leaks(t, state, secret); len(found) > 0 {
			t.Errorf("the state holds the webhook URL")
		}
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// planExit is `tofu plan -detailed-exitcode`'s code (0 empty, 2 changes) and output.
func (d *tofuDir) planExit(t *testing.T, args ...string) (int, string) {
	t.Helper()
	out, code := d.run(t, append([]string{"plan", "-detailed-exitcode"}, args...)...)
	if code == 1 {
		t.Fatalf("tofu plan failed:\n%s", out)
	}
	return code, out
}

func apiReport(t *testing.T, api *client.Client, id string) *client.ScheduledReport {
	t.Helper()
	r, err := api.GetReport(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func apiAlert(t *testing.T, api *client.Client, id string) *client.BudgetAlert {
	t.Helper()
	a, err := api.GetAlert(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func webhookIs(got *string, want string) bool {
	if want == "" {
		return got == nil
	}
	return got != nil && *got == want
}

// A report whose only delivery is a webhook, and an alert with one, made outside Terraform.
func feedOutside(t *testing.T, api *client.Client, name, url string) (reportID, alertID string) {
	t.Helper()
	ctx := context.Background()
	var hook *string
	if url != "" {
		hook = &url
	}
	recipients := []string(nil)
	if hook == nil {
		recipients = []string{"finops@example.com"}
	}
	r, err := api.CreateReport(ctx, client.ReportInput{Name: name, Report: "daily", Format: "csv", Recipients: recipients, WebhookURL: hook,
		Schedule: client.Schedule{Frequency: "daily", Time: "06:00", Timezone: "UTC"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	percent := 80.0
	a, err := api.CreateAlert(ctx, client.AlertInput{Name: name, Amount: 100, Currency: "USD", Period: "monthly", WebhookURL: hook,
		Thresholds: []client.Threshold{{Percent: &percent, Basis: "actual"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = api.DeleteReport(ctx, r.ID)
		_ = api.DeleteAlert(ctx, a.ID)
	})
	return r.ID, a.ID
}

// The configuration of feedOutside's objects, the webhook given as `hook` ("webhook_url_wo" or "webhook_url").
func feedConfig(name, hook, extra string) string {
	variable := "variable \"hook\" {\n  type      = string\n  ephemeral = true\n}\n"
	if hook == "webhook_url" {
		variable = "variable \"hook\" {\n  type      = string\n  sensitive = true\n}\n"
	}
	return variable + fmt.Sprintf(`
resource "cloudcost_scheduled_report" "feed" {
  name     = %[1]q
  report   = "daily"
  schedule = { frequency = "daily", time = "06:00", timezone = "UTC" }
  %[2]s = var.hook
}
resource "cloudcost_budget_alert" "budget" {
  name       = %[1]q
  amount     = 100
  thresholds = [{ percent = 80, basis = "actual" }]
  %[2]s = var.hook
}
%[3]s`, name, hook, extra)
}

func importBlocks(reportID, alertID string) string {
	return fmt.Sprintf("import {\n  to = cloudcost_scheduled_report.feed\n  id = %q\n}\nimport {\n  to = cloudcost_budget_alert.budget\n  id = %q\n}\n", reportID, alertID)
}

// Import (an import block through a saved plan, and `tofu import`) of a report and an alert configured with
// webhook_url_wo: the URL is in neither the saved plan nor the state, the service keeps it, and the plan after
// the import is empty. Before: the import copied the URL into webhook_url, and the next plan wanted
// `webhook_url -> null` and `+ webhook_url_wo_version = 1`.
func TestAccImportKeepsWriteOnlyWebhookOut(t *testing.T) {
	acceptance(t)
	api := testAPI(t)
	url := secretURL(t, "import")
	for _, how := range []string{"import block", "tofu import"} {
		t.Run(how, func(t *testing.T) {
			name := "tfacc-import-wo-" + strings.ReplaceAll(how, " ", "-")
			reportID, alertID := feedOutside(t, api, name, url)
			d := newTofuDir(t, feedConfig(name, "webhook_url_wo", ""))
			d.env = append(d.env, "TF_VAR_hook="+url)
			if how == "import block" {
				d.write(t, feedConfig(name, "webhook_url_wo", importBlocks(reportID, alertID)))
				out := d.mustRun(t, "plan", "-out=plan.out")
				if !strings.Contains(out, "2 to import, 0 to add, 0 to change, 0 to destroy") {
					t.Errorf("the import should change nothing:\n%s", out)
				}
				d.mustNotHold(t, url, "plan.out")
				d.mustRun(t, "apply", "plan.out")
			} else {
				d.mustRun(t, "import", "cloudcost_scheduled_report.feed", reportID)
				d.mustRun(t, "import", "cloudcost_budget_alert.budget", alertID)
			}
			d.mustNotHold(t, url, "")
			if code, out := d.planExit(t, "-out=after.out"); code != 0 {
				t.Errorf("the plan after the import should be empty (exit 0), got %d:\n%s", code, out)
			}
			d.mustNotHold(t, url, "after.out")
			if r, a := apiReport(t, api, reportID), apiAlert(t, api, alertID); !webhookIs(r.WebhookURL, url) || !webhookIs(a.WebhookURL, url) {
				t.Errorf("the service should keep the webhooks: report %v, alert %v", r.WebhookURL, a.WebhookURL)
			}
			// A configuration of the time before: webhook_url_wo_version = 1, bumped by hand. Still empty.
			d.write(t, strings.ReplaceAll(feedConfig(name, "webhook_url_wo", ""), "= var.hook", "= var.hook\n  webhook_url_wo_version = 1"))
			if code, out := d.planExit(t); code != 0 {
				t.Errorf("with webhook_url_wo_version = 1 the plan should be empty too, got %d:\n%s", code, out)
			}
			d.mustRun(t, "state", "rm", "cloudcost_scheduled_report.feed", "cloudcost_budget_alert.budget")
		})
	}
}

// The same import into a configuration with the plain webhook_url (stored in the state by definition): an id
// ending in `:webhook_url` imports the URL into webhook_url, and the plan is empty; a bare id keeps the URL out
// and the plan is one update in place that puts it there (it sends the URL the service already holds).
func TestAccImportPlainWebhook(t *testing.T) {
	acceptance(t)
	api := testAPI(t)
	url := secretURL(t, "import-plain")
	for suffix, want := range map[string]string{":webhook_url": "0 to change", "": "2 to change"} {
		t.Run("id"+suffix, func(t *testing.T) {
			name := "tfacc-import-plain" + strings.ReplaceAll(suffix, ":", "-")
			reportID, alertID := feedOutside(t, api, name, url)
			d := newTofuDir(t, feedConfig(name, "webhook_url", importBlocks(reportID+suffix, alertID+suffix)))
			d.env = append(d.env, "TF_VAR_hook="+url)
			out := d.mustRun(t, "plan", "-out=plan.out")
			if !strings.Contains(out, "2 to import, 0 to add, "+want+", 0 to destroy") {
				t.Errorf("the import should plan %s:\n%s", want, out)
			}
			d.mustRun(t, "apply", "plan.out")
			if code, out := d.planExit(t); code != 0 {
				t.Errorf("the plan after the import should be empty (exit 0), got %d:\n%s", code, out)
			}
			if ids := d.stateIDs(t); ids["cloudcost_scheduled_report.feed"] != reportID || ids["cloudcost_budget_alert.budget"] != alertID {
				t.Errorf("the state should hold the ids without the suffix: %v", ids)
			}
			if r := apiReport(t, api, reportID); !webhookIs(r.WebhookURL, url) {
				t.Errorf("the service should keep the webhook: %v", r.WebhookURL)
			}
			d.mustRun(t, "state", "rm", "cloudcost_scheduled_report.feed", "cloudcost_budget_alert.budget")
		})
	}
}

// `tofu plan -generate-config-out` for what `cloudcost-pulumi import-plan --format terraform` writes: a report
// whose only delivery is a webhook, an alert with one, an alert and a report without. The plan succeeds (before:
// "Nobody to deliver to", exit 1), imports without a change, keeps the webhooks, and says which objects have a
// webhook to name: a warning on each, and `webhook_url_wo_version = 1` in their generated configuration (every
// sensitive argument reads `null # sensitive` whatever it holds). Named, the plan is empty.
func TestAccGeneratedConfigNamesWebhooks(t *testing.T) {
	acceptance(t)
	api := testAPI(t)
	url := secretURL(t, "generated")
	withID, withAlert := feedOutside(t, api, "tfacc-generated-with", url)
	withoutID, withoutAlert := feedOutside(t, api, "tfacc-generated-without", "")
	d := newTofuDir(t, fmt.Sprintf(`import {
  to = cloudcost_scheduled_report.with
  id = %q
}
import {
  to = cloudcost_budget_alert.with
  id = %q
}
import {
  to = cloudcost_scheduled_report.without
  id = %q
}
import {
  to = cloudcost_budget_alert.without
  id = %q
}
`, withID, withAlert, withoutID, withoutAlert))
	out, code := d.run(t, "plan", "-generate-config-out=generated.tf", "-out=plan.out", "-consolidate-warnings=false")
	if code != 0 {
		t.Fatalf("plan -generate-config-out should succeed, exit %d:\n%s", code, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(out, "4 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Errorf("the generated configuration should import without a change:\n%s", out)
	}
	warnings := regexp.MustCompile(`Warning: A webhook to name with (cloudcost_\w+\.\w+)`).FindAllStringSubmatch(flat, -1)
	named := map[string]bool{}
	for _, w := range warnings {
		named[w[1]] = true
	}
	if len(named) != 2 || !named["cloudcost_scheduled_report.with"] || !named["cloudcost_budget_alert.with"] {
		t.Errorf("exactly the two objects with a webhook should be named, got %v:\n%s", named, out)
	}
	if !strings.Contains(flat, "Set webhook_url_wo (from an ephemeral variable) or webhook_url") {
		t.Errorf("the warning should say what to set:\n%s", out)
	}
	generated, err := os.ReadFile(filepath.Join(d.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, b := range regexp.MustCompile(`(?s)resource "(\w+)" "(\w+)" \{(.*?)\n\}`).FindAllStringSubmatch(string(generated), -1) {
		blocks[b[1]+"."+b[2]] = b[3]
	}
	versionOne := regexp.MustCompile(`(?m)webhook_url_wo_version\s+= 1$`)
	for address, body := range blocks {
		if has := versionOne.MatchString(body); has != strings.HasSuffix(address, ".with") {
			t.Errorf("%s: webhook_url_wo_version = 1 should mark exactly the objects with a webhook:\n%s", address, body)
		}
	}
	if len(blocks) != 4 {
		t.Errorf("four resources should be generated:\n%s", generated)
	}
	d.mustNotHold(t, url, "plan.out")
	d.mustRun(t, "apply", "plan.out")
	d.mustNotHold(t, url, "")
	if r, a := apiReport(t, api, withID), apiAlert(t, api, withAlert); !webhookIs(r.WebhookURL, url) || !webhookIs(a.WebhookURL, url) {
		t.Errorf("importing should keep the webhooks: report %v, alert %v", r.WebhookURL, a.WebhookURL)
	}

	// What the warning says to do: name the URL, write-only, from an ephemeral variable. Then nothing to do.
	filled := regexp.MustCompile(`(resource "\w+" "with" \{(?s:.*?))webhook_url_wo\s+= null # sensitive write-only`).
		ReplaceAllString(string(generated), "${1}webhook_url_wo = var.hook")
	if strings.Count(filled, "var.hook") != 2 {
		t.Fatalf("could not fill in the generated configuration:\n%s", generated)
	}
	if err := os.WriteFile(filepath.Join(d.dir, "generated.tf"), []byte(filled+"\nvariable \"hook\" {\n  type      = string\n  ephemeral = true\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.env = append(d.env, "TF_VAR_hook="+url)
	if code, out := d.planExit(t); code != 0 || strings.Contains(out, "A webhook to name") {
		t.Errorf("named, the plan should be empty and quiet (exit 0), got %d:\n%s", code, out)
	}
}

// A changed webhook_url_wo is sent on the next apply with no version to bump; switching to webhook_url and
// back, leaving the webhook out, and a webhook changed outside are each one update, after which the plan is
// empty. Before: a changed write-only URL planned nothing (exit 0) and was never sent.
func TestAccWriteOnlyWebhookChangesWithoutVersion(t *testing.T) {
	acceptance(t)
	api := testAPI(t)
	const name = "tfacc-wo-change"
	d := newTofuDir(t, feedConfig(name, "webhook_url_wo", ""))
	withHook := func(url string) { d.env = append(d.env, "TF_VAR_hook="+url) }
	ids := func() (string, string) {
		s := d.stateIDs(t)
		return s["cloudcost_scheduled_report.feed"], s["cloudcost_budget_alert.budget"]
	}
	onService := func(step, url string) {
		t.Helper()
		reportID, alertID := ids()
		if r, a := apiReport(t, api, reportID), apiAlert(t, api, alertID); !webhookIs(r.WebhookURL, url) || !webhookIs(a.WebhookURL, url) {
			t.Errorf("%s: the service should hold %q: report %v, alert %v", step, url, r.WebhookURL, a.WebhookURL)
		}
	}
	applyChange := func(step string, want ...string) {
		t.Helper()
		code, out := d.planExit(t, "-out=plan.out")
		if code != 2 {
			t.Fatalf("%s: the plan should show a change (exit 2), got %d:\n%s", step, code, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the plan should say %q:\n%s", step, w, out)
			}
		}
		d.mustRun(t, "apply", "plan.out")
		if code, out := d.planExit(t); code != 0 {
			t.Errorf("%s: the plan after the apply should be empty, got %d:\n%s", step, code, out)
		}
	}
	first, second := secretURL(t, "first"), secretURL(t, "second")
	withHook(first)
	d.mustRun(t, "apply", "-auto-approve")
	onService("create", first)
	d.mustNotHold(t, first, "")

	withHook(second)
	applyChange("a changed write-only URL", "webhook_url_wo_version = 1 -> 2")
	onService("a changed write-only URL", second)
	d.mustNotHold(t, second, "plan.out")
	d.mustNotHold(t, first, "")

	plain := secretURL(t, "plain")
	d.write(t, feedConfig(name, "webhook_url", ""))
	withHook(plain)
	applyChange("to webhook_url")
	onService("to webhook_url", plain)

	back := secretURL(t, "back")
	d.write(t, feedConfig(name, "webhook_url_wo", ""))
	withHook(back)
	applyChange("back to webhook_url_wo", "webhook_url_wo_version = 1")
	onService("back to webhook_url_wo", back)
	d.mustNotHold(t, back, "plan.out")
	d.mustNotHold(t, plain, "")

	// Changed outside: the refresh sees another URL; the apply sends the configuration's again.
	reportID, alertID := ids()
	other := "https://hooks.example.com/changed-outside"
	r := apiReport(t, api, reportID)
	if _, err := api.ReplaceReport(context.Background(), reportID, client.ReportInput{Name: r.Name, Report: r.Report, Schedule: r.Schedule,
		Format: r.Format, Recipients: r.Recipients, WebhookURL: &other}); err != nil {
		t.Fatal(err)
	}
	if code, out := d.planExit(t); code != 2 {
		t.Errorf("a webhook changed outside should plan an update, got %d:\n%s", code, out)
	}
	d.mustRun(t, "apply", "-auto-approve")
	if r := apiReport(t, api, reportID); !webhookIs(r.WebhookURL, back) {
		t.Errorf("the apply should restore the configured URL, the service holds %v", r.WebhookURL)
	}

	// The webhook left out (the alert needs none; the report gets a recipient): removed.
	d.write(t, strings.ReplaceAll(strings.ReplaceAll(feedConfig(name, "webhook_url_wo", ""), "  webhook_url_wo = var.hook\n", ""),
		`report   = "daily"`, `report   = "daily"`+"\n  recipients = [\"finops@example.com\"]"))
	applyChange("webhook left out")
	if r, a := apiReport(t, api, reportID), apiAlert(t, api, alertID); r.WebhookURL != nil || a.WebhookURL != nil {
		t.Errorf("leaving the webhook out should remove it: report %v, alert %v", r.WebhookURL, a.WebhookURL)
	}
	d.mustRun(t, "destroy", "-auto-approve")
}

// The examples of a write-only webhook (the provider's docs and examples/scoped-budgets-terraform), applied as
// written through a saved plan: the URL appears in
// neither the plan file nor `tofu show -json` of it nor the state. Before: the examples' variable was
// `sensitive = true`, whose value a saved plan stores (`variables.<name>.value`).
func TestAccExampleWebhookNeverSaved(t *testing.T) {
	acceptance(t)
	api := testAPI(t)
	group, err := api.CreateGroup(context.Background(), client.CreateGroup{Name: fmt.Sprintf("tfacc-example-webhook-%d", time.Now().UnixNano())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.DeleteGroup(context.Background(), group.ID) })
	// The examples filter on services and regions of both clouds: the group needs an account of each.
	if _, err := api.ReplaceMembers(context.Background(), group.ID, []client.Member{{Provider: "aws", AccountID: "111122223333"},
		{Provider: "azure", AccountID: subscription}}); err != nil {
		t.Fatal(err)
	}
	examples := map[string]string{
		"terraform-provider-cloudcost/examples/resources/cloudcost_scheduled_report/resource.tf": "feed_webhook_url",
		"terraform-provider-cloudcost/examples/resources/cloudcost_budget_alert/resource.tf":     "alert_webhook_url",
		"examples/scoped-budgets-terraform/main.tf":                                              "feed_webhook_url", // names its provider itself
	}
	for example, variable := range examples {
		t.Run(filepath.Dir(example), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(repoRoot, example))
			if err != nil {
				t.Fatal(err)
			}
			url := secretURL(t, "example")
			d := newTofuDir(t, string(data))
			if strings.Contains(string(data), "required_providers") {
				if err := os.WriteFile(filepath.Join(d.dir, "main.tf"), data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			d.env = append(d.env, "TF_VAR_"+variable+"="+url, "TF_VAR_group_id="+group.ID)
			d.mustRun(t, "plan", "-out=plan.out")
			d.mustNotHold(t, url, "plan.out")
			d.mustRun(t, "apply", "plan.out")
			d.mustNotHold(t, url, "")
			if code, out := d.planExit(t); code != 0 {
				t.Errorf("the plan after applying the example should be empty, got %d:\n%s", code, out)
			}
			d.mustRun(t, "destroy", "-auto-approve")
		})
	}
}
