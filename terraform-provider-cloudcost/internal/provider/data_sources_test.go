package provider_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The data sources against the sandbox: every cost read with its filters answers what the API answers for
// the same query, the accounts are every page, and the signing secret reaches the state only through the data
// source (marked sensitive), never through the ephemeral resource.
func TestAccDataSources(t *testing.T) {
	acceptance(t)
	const query = `
  from        = "2026-10-01"
  to          = "2026-10-31"
  providers   = ["aws", "azure"]
  tag         = ["env=prod"]
`
	var config strings.Builder
	for _, kind := range []string{"cost_summary", "cost_by_service", "cost_by_day", "cost_forecast", "cost_comparison"} {
		config.WriteString("data \"cloudcost_" + kind + "\" \"w\" {" + query + "}\n")
	}
	config.WriteString(`
data "cloudcost_accounts" "all" {}
ephemeral "cloudcost_webhook_signing_secret" "e" {}
output "summary_total" { value = data.cloudcost_cost_summary.w.total }
output "summary_tags" { value = data.cloudcost_cost_summary.w.filters.tags }
output "services" { value = length(data.cloudcost_cost_by_service.w.items) }
output "days" { value = length(data.cloudcost_cost_by_day.w.days) }
output "forecast_total" { value = data.cloudcost_cost_forecast.w.total }
output "comparison_previous_from" { value = data.cloudcost_cost_comparison.w.previous.from }
output "accounts" { value = length(data.cloudcost_accounts.all.accounts) }
`)
	d := newTofuDir(t, config.String())
	sandbox.resetCounts()
	d.mustRun(t, "apply", "-auto-approve")
	counts := sandbox.snapshot()
	var outputs map[string]struct{ Value any }
	raw := d.mustRun(t, "output", "-json")
	if err := json.Unmarshal([]byte(raw[strings.Index(raw, "{"):]), &outputs); err != nil {
		t.Fatal(err)
	}
	var summary struct {
		Total float64
	}
	sandbox.api(t, "GET", "/cost/summary?from=2026-10-01&to=2026-10-31&providers=aws&providers=azure&tag=env%3Dprod", nil, &summary)
	if outputs["summary_total"].Value != summary.Total || summary.Total == 0 {
		t.Errorf("total: the data source says %v, the API %v", outputs["summary_total"].Value, summary.Total)
	}
	if tags, _ := json.Marshal(outputs["summary_tags"].Value); string(tags) != `[{"key":"env","values":["prod"]}]` {
		t.Errorf("the filters applied should be echoed: %s", tags)
	}
	if outputs["days"].Value != float64(31) || outputs["comparison_previous_from"].Value != "2026-08-31" {
		t.Errorf("days %v, previous window from %v", outputs["days"].Value, outputs["comparison_previous_from"].Value)
	}
	var accounts struct{ Items []any }
	sandbox.api(t, "GET", "/accounts?limit=200", nil, &accounts)
	if outputs["accounts"].Value != float64(len(accounts.Items)) {
		t.Errorf("accounts: %v, the API has %d", outputs["accounts"].Value, len(accounts.Items))
	}
	if counts["GET /webhooks/signing-secret"] == 0 {
		t.Errorf("the ephemeral resource should have read the secret: %v", counts)
	}
	state, err := os.ReadFile(filepath.Join(d.dir, "terraform.tfstate"))
	if err != nil || strings.Contains(string(state), "whsec_") {
		t.Errorf("the ephemeral secret must never reach the state (%v)", err)
	}

	// The data source does store it, marked sensitive (README: what lands in the state).
	d.write(t, `
data "cloudcost_webhook_signing_secret" "s" {}
output "secret" {
  value     = data.cloudcost_webhook_signing_secret.s.secret
  sensitive = true
}
`)
	shown := d.mustRun(t, "apply", "-auto-approve")
	if strings.Contains(shown, "whsec_") {
		t.Errorf("a sensitive value must not be shown:\n%s", shown)
	}
	state, _ = os.ReadFile(filepath.Join(d.dir, "terraform.tfstate"))
	if !strings.Contains(string(state), "whsec_") {
		t.Errorf("the data source's secret is in the state as the README says")
	}
}

// A field error of a cost read lands on the argument it names.
func TestAccCostReadFieldError(t *testing.T) {
	acceptance(t)
	d := newTofuDir(t, `
data "cloudcost_cost_summary" "backwards" {
  from = "2026-10-31"
  to   = "2026-10-01"
}
`)
	out, code := d.run(t, "plan")
	flat := strings.Join(strings.Fields(out), " ")
	if code == 0 || !strings.Contains(flat, `on main.tf line`) || !strings.Contains(flat, `to = "2026-10-01"`) || !strings.Contains(flat, "must not be before `from`") {
		t.Errorf("the error should point at `to` (exit %d):\n%s", code, out)
	}
}
