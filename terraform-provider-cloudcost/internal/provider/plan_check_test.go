package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Issue 38: the service's own rules at plan time. Every 422 (and a rename's 409) a create or a change of
// each kind can get from the organization is shown by a real `tofu plan`, on the attribute it names, with the
// message the real request gets (asked of the sandbox directly, which refuses it and writes nothing), and
// the plan writes nothing: the only requests besides reads are the dry-runs, one per resource created or
// changed, none for an unchanged one or for one whose inputs are unknown until apply.

const (
	notConnected = "999999999999"
	outsideScope = "111122223333" // connected, not a member of the scope group
	inScope      = "444455556666"
	unknownGroup = "grp_0000000000000000000000"
)

// serviceMessage is what the service answers the real request with, for the field at fieldPath: the text a
// diagnostic of apply shows after the attribute's name (AddAPIError: "<attribute>: <message> (<code>; request id …)").
func serviceMessage(t *testing.T, method, path string, body any, fieldPath string) string {
	t.Helper()
	var problem struct {
		Errors []struct{ Path, Code, Message string }
	}
	if status := sandbox.api(t, method, path, body, &problem); status != 409 && status != 422 {
		t.Fatalf("%s %s: the real request was answered %d, not a refusal", method, path, status)
	}
	for _, e := range problem.Errors {
		if e.Path == fieldPath {
			return fmt.Sprintf("%s (%s;", e.Message, e.Code)
		}
	}
	t.Fatalf("%s %s: no field error at %s in %+v", method, path, fieldPath, problem.Errors)
	return ""
}

// onAttribute matches OpenTofu's rendering of an error diagnostic on one attribute of one resource: the
// summary, the resource, the configuration line of the attribute, then the detail (wrapped by OpenTofu), which
// names the attribute. An attribute nested in `filters` (`filters.account_ids`) is shown on the `filters` line —
// OpenTofu 1.12 does not point into a nested attribute's object — as at apply.
func onAttribute(summary, address, attribute, detail string) *regexp.Regexp {
	kind, name, _ := strings.Cut(address, ".")
	loose := func(s string) string { return strings.ReplaceAll(regexp.QuoteMeta(s), " ", `\s+`) }
	line, named := attribute+`\s+=`, attribute
	if nestedInFilters[attribute] {
		line, named = `filters\s+=`, "filters."+attribute
	}
	return regexp.MustCompile(fmt.Sprintf(`(?s)Error: %s\s+with %s,\s+on \S+ line \d+, in resource "%s" "%s":\s+\d+:\s+%s[^\n]*\n.*?%s`,
		loose(summary), regexp.QuoteMeta(address), kind, name, line, loose(named+": "+detail)))
}

// nestedInFilters are the attributes of the filters object the cases name.
var nestedInFilters = map[string]bool{"account_ids": true, "providers": true, "tags": true}

// writesIn lists the requests of counts that change something: any POST, PUT, PATCH or DELETE but a dry-run.
func writesIn(counts map[string]int) []string {
	var writes []string
	for k, n := range counts {
		method, path, _ := strings.Cut(k, " ")
		if method != "GET" && !strings.HasSuffix(path, ":validate") && !strings.HasPrefix(path, "/oauth/") {
			writes = append(writes, fmt.Sprintf("%s ×%d", k, n))
		}
	}
	return writes
}

func dryRuns(counts map[string]int) int {
	return counts["POST /groups:validate"] + counts["POST /alerts:validate"] + counts["POST /reports:validate"]
}

func alertHCL(name, extra string) string {
	return fmt.Sprintf(`
resource "cloudcost_budget_alert" %q {
  name       = "tfacc-plan-alert"
  amount     = 10
  thresholds = [{ percent = 100, basis = "actual" }]
%s
}
`, name, extra)
}

func reportHCL(name, extra string) string {
	return fmt.Sprintf(`
resource "cloudcost_scheduled_report" %q {
  name       = "tfacc-plan-report"
  report     = "summary"
  schedule   = { frequency = "daily", time = "06:00", timezone = "UTC" }
  recipients = ["finops@example.com"]
%s
}
`, name, extra)
}

func alertJSON(extra map[string]any) map[string]any {
	body := map[string]any{"name": "tfacc-plan-alert", "amount": 10, "currency": "USD", "period": "monthly", "thresholds": []any{map[string]any{"percent": 100, "basis": "actual"}}}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

func reportJSON(extra map[string]any) map[string]any {
	body := map[string]any{"name": "tfacc-plan-report", "report": "summary", "recipients": []string{"finops@example.com"},
		"schedule": map[string]any{"frequency": "daily", "time": "06:00", "timezone": "UTC"}}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// scopeGroup makes the organization the rules are judged against: a group whose only member is inScope, and
// a group whose name is taken. Both are made by the test, directly, not through a plan.
func scopeGroup(t *testing.T, prefix string) (scopeID, takenName string) {
	t.Helper()
	var g struct{ ID string }
	takenName = prefix + "-taken"
	if status := sandbox.api(t, "POST", "/groups", map[string]any{"name": takenName}, nil); status != 201 {
		t.Fatalf("creating %s: %d", takenName, status)
	}
	if status := sandbox.api(t, "POST", "/groups", map[string]any{"name": prefix + "-scope"}, &g); status != 201 {
		t.Fatalf("creating the scope group: %d", status)
	}
	members := map[string]any{"members": []map[string]string{{"provider": "aws", "accountId": inScope}}}
	if status := sandbox.api(t, "PUT", "/groups/"+g.ID+"/members", members, nil); status != 200 {
		t.Fatalf("setting the scope group's members: %d", status)
	}
	return g.ID, takenName
}

// filterCase is one rule of the organization on an alert's or a report's group and filters.
type filterCase struct {
	name, hcl string
	json      func(scope string) map[string]any
	attribute string
	fieldPath string
}

func filterCases(scope string) []filterCase {
	return []filterCase{
		{"unknown_group", fmt.Sprintf("  group_id = %q", unknownGroup), func(string) map[string]any { return map[string]any{"groupId": unknownGroup} },
			"group_id", "body.groupId"},
		{"unknown_account", "  filters = {\n    account_ids = [\"" + notConnected + "\"]\n  }",
			func(string) map[string]any {
				return map[string]any{"filters": map[string]any{"accountIds": []string{notConnected}}}
			},
			"account_ids", "body.filters.accountIds.0"},
		{"not_in_group", fmt.Sprintf("  group_id = %q\n  filters = {\n    account_ids = [%q]\n  }", scope, outsideScope),
			func(s string) map[string]any {
				return map[string]any{"groupId": s, "filters": map[string]any{"accountIds": []string{outsideScope}}}
			}, "account_ids", "body.filters.accountIds.0"},
		{"no_account_of_provider", fmt.Sprintf("  group_id = %q\n  filters = {\n    providers = [\"azure\"]\n  }", scope),
			func(s string) map[string]any {
				return map[string]any{"groupId": s, "filters": map[string]any{"providers": []string{"azure"}}}
			}, "providers", "body.filters.providers.0"},
		{"unknown_tag_key", "  filters = {\n    tags = [{ key = \"owner\", values = [\"x\"] }]\n  }",
			func(string) map[string]any {
				return map[string]any{"filters": map[string]any{"tags": []any{map[string]any{"key": "owner", "values": []string{"x"}}}}}
			}, "tags", "body.filters.tags.0.key"},
	}
}

// planRefused runs `tofu plan` and expects it to fail with want, having written nothing and sent dry-runs
// dryRunsWanted dry-runs.
func planRefused(t *testing.T, d *tofuDir, dryRunsWanted int, want ...*regexp.Regexp) {
	t.Helper()
	sandbox.resetCounts()
	out, code := d.run(t, "plan", "-input=false")
	counts := sandbox.snapshot()
	if code == 0 {
		t.Fatalf("tofu plan passed; want it refused\n%s", out)
	}
	for _, w := range want {
		if !w.MatchString(out) {
			t.Errorf("tofu plan: no diagnostic matching %s\n%s", w, out)
		}
	}
	if writes := writesIn(counts); len(writes) > 0 {
		t.Errorf("tofu plan wrote: %v", writes)
	}
	if n := dryRuns(counts); n != dryRunsWanted {
		t.Errorf("tofu plan sent %d dry-runs, want %d: %v", n, dryRunsWanted, counts)
	}
}

// Every rule a create of each kind can meet: one plan per rule and kind.
func TestAccPlanShowsTheServiceRulesOfCreates(t *testing.T) {
	acceptance(t)
	scope, taken := scopeGroup(t, "tfacc-plan-create")
	t.Run("a new cloud group whose name is taken", func(t *testing.T) {
		// A create is never answered with an object another create made (create_key.go, issue 37), so a name
		// taken — even by an interrupted apply's leftover — is refused at plan, with the way to adopt a leftover.
		d := newTofuDir(t, fmt.Sprintf("resource \"cloudcost_cloud_group\" \"g\" {\n  name = %q\n}\n", taken))
		msg := serviceMessage(t, "POST", "/groups", map[string]any{"name": taken}, "body.name")
		planRefused(t, d, 1, onAttribute("Could not create the Cloud Group", "cloudcost_cloud_group.g", "name", msg),
			regexp.MustCompile(`(?s)Warning: Left by an interrupted apply\?.*?cloudcost-unmanaged`))
	})
	t.Run("cloud group member not connected", func(t *testing.T) {
		d := newTofuDir(t, "resource \"cloudcost_cloud_group\" \"g\" {\n  name = \"tfacc-plan-new\"\n  aws_account_ids = [\""+notConnected+"\"]\n}\n")
		members := map[string]any{"members": []map[string]string{{"provider": "aws", "accountId": notConnected}}}
		msg := serviceMessage(t, "PUT", "/groups/"+scope+"/members", members, "body.members.0.accountId")
		planRefused(t, d, 1, onAttribute("Could not set the Cloud Group's members", "cloudcost_cloud_group.g", "aws_account_ids", msg))
	})
	for _, c := range filterCases(scope) {
		t.Run("budget alert "+c.name, func(t *testing.T) {
			d := newTofuDir(t, alertHCL("a", c.hcl))
			msg := serviceMessage(t, "POST", "/alerts", alertJSON(c.json(scope)), c.fieldPath)
			planRefused(t, d, 1, onAttribute("Could not create the budget alert", "cloudcost_budget_alert.a", c.attribute, msg))
		})
		t.Run("scheduled report "+c.name, func(t *testing.T) {
			d := newTofuDir(t, reportHCL("r", c.hcl))
			msg := serviceMessage(t, "POST", "/reports", reportJSON(c.json(scope)), c.fieldPath)
			planRefused(t, d, 1, onAttribute("Could not create the scheduled report", "cloudcost_scheduled_report.r", c.attribute, msg))
		})
	}
}

// A change of each kind meets the rules at plan; an unchanged resource costs no dry-run; a resource whose
// input is unknown until apply is not judged at plan.
func TestAccPlanShowsTheServiceRulesOfChanges(t *testing.T) {
	acceptance(t)
	scope, taken := scopeGroup(t, "tfacc-plan-change")
	valid := fmt.Sprintf("resource \"cloudcost_cloud_group\" \"g\" {\n  name = \"tfacc-plan-change-g\"\n  aws_account_ids = [%q]\n}\n", inScope) +
		alertHCL("a", fmt.Sprintf("  group_id = %q", scope)) + reportHCL("r", "")
	d := newTofuDir(t, valid)
	d.mustRun(t, "apply", "-auto-approve", "-input=false")
	ids := d.stateIDs(t)

	// Unchanged: reads only, no dry-run.
	sandbox.resetCounts()
	d.mustRun(t, "plan", "-input=false", "-detailed-exitcode")
	if counts := sandbox.snapshot(); dryRuns(counts) != 0 || len(writesIn(counts)) != 0 {
		t.Errorf("an unchanged plan sent dry-runs or writes: %v", counts)
	}

	for _, c := range filterCases(scope) {
		t.Run(c.name, func(t *testing.T) {
			d.write(t, fmt.Sprintf("resource \"cloudcost_cloud_group\" \"g\" {\n  name = %q\n  aws_account_ids = [%q]\n}\n", taken, inScope)+
				alertHCL("a", c.hcl)+reportHCL("r", c.hcl))
			alertMsg := serviceMessage(t, "PUT", "/alerts/"+ids["cloudcost_budget_alert.a"], alertJSON(c.json(scope)), c.fieldPath)
			reportMsg := serviceMessage(t, "PUT", "/reports/"+ids["cloudcost_scheduled_report.r"], reportJSON(c.json(scope)), c.fieldPath)
			groupMsg := serviceMessage(t, "PATCH", "/groups/"+ids["cloudcost_cloud_group.g"], map[string]any{"name": taken}, "body.name")
			planRefused(t, d, 3,
				onAttribute("Could not update the Cloud Group", "cloudcost_cloud_group.g", "name", groupMsg),
				onAttribute("Could not update the budget alert "+ids["cloudcost_budget_alert.a"], "cloudcost_budget_alert.a", c.attribute, alertMsg),
				onAttribute("Could not update the scheduled report "+ids["cloudcost_scheduled_report.r"], "cloudcost_scheduled_report.r", c.attribute, reportMsg))
		})
	}
	t.Run("members not connected", func(t *testing.T) {
		d.write(t, fmt.Sprintf("resource \"cloudcost_cloud_group\" \"g\" {\n  name = \"tfacc-plan-change-g\"\n  aws_account_ids = [%q, %q]\n}\n", inScope, notConnected)+
			alertHCL("a", fmt.Sprintf("  group_id = %q", scope))+reportHCL("r", ""))
		members := map[string]any{"members": []map[string]string{{"provider": "aws", "accountId": inScope}, {"provider": "aws", "accountId": notConnected}}}
		msg := serviceMessage(t, "PUT", "/groups/"+ids["cloudcost_cloud_group.g"]+"/members", members, "body.members.1.accountId")
		planRefused(t, d, 1, onAttribute("Could not set the Cloud Group's members", "cloudcost_cloud_group.g", "aws_account_ids", msg))
	})
	t.Run("an input unknown until apply is not judged at plan", func(t *testing.T) {
		// The new group is judged; the alert's group_id is its id, unknown until apply: not judged, no request.
		d.write(t, valid+"resource \"cloudcost_cloud_group\" \"later\" {\n  name = \"tfacc-plan-change-later\"\n}\n"+
			alertHCL("b", "  group_id = cloudcost_cloud_group.later.id\n  filters = {\n    account_ids = [\""+outsideScope+"\"]\n  }"))
		sandbox.resetCounts()
		out := d.mustRun(t, "plan", "-input=false")
		counts := sandbox.snapshot()
		if counts["POST /groups:validate"] != 1 || counts["POST /alerts:validate"] != 0 || len(writesIn(counts)) != 0 {
			t.Errorf("want one group dry-run, no alert dry-run, no write: %v\n%s", counts, out)
		}
	})
	d.write(t, valid)
	d.mustRun(t, "destroy", "-auto-approve", "-input=false")
}
