package provider_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Issue 37 §3 and §4 through the real `tofu`: values the service accepts apply and plan empty after, values
// it refuses are refused at plan with the attribute named, and errors say what to fix.

// flat is tofu's output on one line (it wraps diagnostics at the terminal's width).
func flat(out string) string { return strings.Join(strings.Fields(out), " ") }

// Values the service accepts: each applies, and the plan after it is empty (no "inconsistent result after
// apply", no replacement of a tainted resource).
func TestAccValuesTheServiceAccepts(t *testing.T) {
	acceptance(t)
	emoji := strings.Repeat("\U0001F4B8", 100)
	d := newTofuDir(t, fmt.Sprintf(`
provider "cloudcost" {}
resource "cloudcost_cloud_group" "g" {
  name        = "%s"
  description = "%s"
}
resource "cloudcost_budget_alert" "a" {
  name            = "\ufeffBOM-led budget"
  amount          = 100
  group_id        = cloudcost_cloud_group.g.id
  planned_amounts = []
  filters         = { tags = [{ key = "team", values = ["new-team"] }] }
  thresholds      = [{ percent = 100, basis = "actual" }]
}
resource "cloudcost_scheduled_report" "kolkata" {
  name       = "Kolkata"
  report     = "summary"
  schedule   = { frequency = "daily", time = "09:00", timezone = "Asia/Kolkata" }
  recipients = ["finops@example.com"]
}
resource "cloudcost_scheduled_report" "kyiv" {
  name       = "Kyiv"
  report     = "summary"
  schedule   = { frequency = "daily", time = "09:00", timezone = "Europe/Kyiv" }
  recipients = ["finops@example.com"]
}
`, emoji, strings.Repeat("\U0001F4B8", 500)))
	t.Cleanup(func() { d.run(t, "destroy", "-auto-approve") })
	out, code := d.run(t, "apply", "-auto-approve")
	if code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, out)
	}
	if plan, code := d.run(t, "plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after apply should be empty (exit %d):\n%s", code, plan)
	}
	// A refresh stores what the service answers: the plan after it is empty too (the values are kept as written).
	d.mustRun(t, "apply", "-refresh-only", "-auto-approve")
	if plan, code := d.run(t, "plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after a refresh should be empty (exit %d):\n%s", code, plan)
	}
}

// Values the service refuses are refused at plan, on the attribute, before any request.
func TestAccValuesRefusedAtPlan(t *testing.T) {
	acceptance(t)
	block := func(kind, body string) string { return "resource \"" + kind + "\" \"x\" {\n" + body + "\n}\n" }
	for name, c := range map[string]struct{ config, says string }{
		"101 emoji": {block("cloudcost_cloud_group", fmt.Sprintf(`name = "%s"`, strings.Repeat("\U0001F4B8", 101))),
			"must be at most 100 characters after trimming surrounding whitespace (got 101)"},
		"501 emoji": {block("cloudcost_cloud_group", fmt.Sprintf("name = \"g\"\ndescription = \"%s\"", strings.Repeat("\U0001F4B8", 501))),
			"must be at most 500 characters (got 501)"},
		"a name as group": {block("cloudcost_budget_alert", "name = \"a\"\namount = 1\ngroup_id = \"Production\"\nthresholds = [{ percent = 100, basis = \"actual\" }]"),
			`group_id = "Production" must be an ID starting with grp_`},
		"not a zone": {block("cloudcost_scheduled_report", "name = \"r\"\nreport = \"summary\"\nschedule = { frequency = \"daily\", time = \"09:00\", timezone = \"IST\" }\nrecipients = [\"a@example.com\"]"),
			"must be an IANA time-zone name"},
	} {
		t.Run(name, func(t *testing.T) {
			d := newTofuDir(t, "provider \"cloudcost\" {}\n"+c.config+"\n")
			sandbox.resetCounts()
			out, code := d.run(t, "plan")
			if code == 0 || !strings.Contains(flat(out), c.says) {
				t.Errorf("plan should fail saying %q (exit %d):\n%s", c.says, code, out)
			}
			for call, n := range sandbox.snapshot() {
				if !strings.HasPrefix(call, "GET ") {
					t.Errorf("a refused value sent %s (%d)", call, n)
				}
			}
		})
	}
	d := newTofuDir(t, "provider \"cloudcost\" {}\nresource \"cloudcost_cloud_group\" \"g\" { name = \"g\" }\n")
	if out, code := d.run(t, "import", "cloudcost_cloud_group.g", "Production"); code == 0 || !strings.Contains(flat(out), "must be an ID starting with grp_") {
		t.Errorf("an import by name should be refused naming the ID's form (exit %d):\n%s", code, out)
	}
}

// A wrong api_url says which setting points where and what answered there: nothing (a closed port), or not
// the API (an HTML page answering 200).
func TestAccAPIURLErrorsSayWhereTheyPoint(t *testing.T) {
	acceptance(t)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String() + "/api/v1"
	closed.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Welcome</title><p>It works</p>")
	}))
	defer html.Close()
	for _, c := range []struct {
		config, env string
		says        []string
	}{
		{`provider "cloudcost" {}`, "CLOUDCOST_API_URL=" + closedURL,
			[]string{"CLOUDCOST_API_URL (the provider's api_url is not set) is " + closedURL, "no server answered there", "connection refused"}},
		{fmt.Sprintf(`provider "cloudcost" { api_url = %q }`, html.URL+"/api/v1"), "",
			[]string{"the provider's api_url is " + html.URL + "/api/v1", "not the cloudcost API", "a 200 text/html response"}},
	} {
		d := newTofuDir(t, c.config+"\ndata \"cloudcost_accounts\" \"all\" {}\n")
		if c.env != "" {
			d.env = append(d.env, c.env)
		}
		out, code := d.run(t, "plan")
		for _, s := range c.says {
			if code == 0 || !strings.Contains(flat(out), s) {
				t.Errorf("plan should fail saying %q (exit %d):\n%s", s, code, out)
			}
		}
	}
}

// A field error of the service inside a nested attribute (an account of the filter that is not in the
// alert's group: only the service knows) is shown on the attribute's line in the configuration, in
// Terraform's names, not at the `resource` line with the API's path.
func TestAccNestedFieldErrorInTerraformNames(t *testing.T) {
	acceptance(t)
	d := newTofuDir(t, `
provider "cloudcost" {}
resource "cloudcost_cloud_group" "g" {
  name            = "tfacc-nested-field-error"
  aws_account_ids = ["111122223333"]
}
resource "cloudcost_budget_alert" "a" {
  name       = "nested"
  amount     = 10
  group_id   = cloudcost_cloud_group.g.id
  filters    = { account_ids = ["444455556666"] }
  thresholds = [{ percent = 100, basis = "actual" }]
}
`)
	t.Cleanup(func() { d.run(t, "destroy", "-auto-approve") })
	out, code := d.run(t, "apply", "-auto-approve")
	said := flat(out)
	for _, s := range []string{
		`in resource "cloudcost_budget_alert" "a": 17: filters = { account_ids = ["444455556666"] }`,
		"filters.account_ids: aws account 444455556666 is not a member of Cloud Group grp_",
		"(not_in_group; request id req_",
	} {
		if code == 0 || !strings.Contains(said, s) {
			t.Errorf("apply should fail saying %q (exit %d):\n%s", s, code, out)
		}
	}
	if strings.Contains(said, "body.filters") || strings.Contains(said, "accountIds") {
		t.Errorf("the API's path should not reach the user:\n%s", out)
	}
}
