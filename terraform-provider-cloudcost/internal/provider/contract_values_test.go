package provider

import (
	"encoding/json"
	"os"
	"sort"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The closed lists of contract_values.go are the document's: a value the contract adds and the provider
// lacks would be refused at plan time, so this fails first.
func TestContractValuesMatchTheDocument(t *testing.T) {
	data, err := os.ReadFile("../../../api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	schema := func(name string) map[string]any {
		var s map[string]any
		if err := json.Unmarshal(doc.Components.Schemas[name], &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	enum := func(s map[string]any) []string {
		var out []string
		for _, v := range s["enum"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	prop := func(s map[string]any, name string) map[string]any {
		return s["properties"].(map[string]any)[name].(map[string]any)
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		return out
	}
	cases := map[string]struct{ ours, theirs []string }{
		"ServiceName":      {serviceNames, enum(schema("ServiceName"))},
		"RegionName":       {regionNames, enum(schema("RegionName"))},
		"CloudProvider":    {cloudProviders, enum(schema("CloudProvider"))},
		"ThresholdBasis":   {thresholdBases, enum(schema("ThresholdBasis"))},
		"BudgetPeriod":     {budgetPeriods, enum(schema("BudgetPeriod"))},
		"ReportKind":       {reportKinds, enum(schema("ReportKind"))},
		"ReportFormat":     {reportFormats, enum(schema("ReportFormat"))},
		"currency":         {currencyCodes, enum(prop(schema("AlertInput"), "currency"))},
		"Schedule mapping": {frequencies, keys(schema("Schedule")["discriminator"].(map[string]any)["mapping"].(map[string]any))},
		"dayOfWeek":        {daysOfWeek, enum(prop(schema("WeeklySchedule"), "dayOfWeek"))},
	}
	for name, c := range cases {
		a, b := append([]string{}, c.ours...), append([]string{}, c.theirs...)
		sort.Strings(a)
		sort.Strings(b)
		if !equalStrings(a, b) {
			t.Errorf("%s: provider has %v, api/openapi.json has %v", name, a, b)
		}
	}
}

// A field error of the service lands on the attribute; inside a set, on the set (a path cannot index one).
func TestFieldErrorPaths(t *testing.T) {
	cases := []struct {
		paths func(string) (path.Path, bool)
		in    string
		want  path.Path
	}{
		{alertSets, "body.groupId", path.Root("group_id")},
		{alertSets, "body.thresholds.1.percent", path.Root("thresholds")},
		{alertSets, "body.filters.accountIds.0", path.Root("filters").AtName("account_ids")},
		{alertSets, "body.plannedAmounts.0.periodStart", path.Root("planned_amounts")},
		{alertSets, "body.autoAdjust.lookbackPeriods", path.Root("auto_adjust").AtName("lookback_periods")},
		{reportSets, "body.schedule.dayOfWeek", path.Root("schedule").AtName("day_of_week")},
		{reportSets, "body.recipients.2", path.Root("recipients")},
	}
	for _, c := range cases {
		got, ok := c.paths(c.in)
		if !ok || !got.Equal(c.want) {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	if _, ok := alertSets("query.from"); ok {
		t.Error("a query parameter is no attribute")
	}
}

func TestContractRules(t *testing.T) {
	good := map[string]func(string) string{
		"https://hooks.example.com/x": webhookURLRule, "http://localhost:8787/x": webhookURLRule, "http://[::1]:1/x": webhookURLRule,
		"a.b+c@example.co": emailRule, "2028-02-29": calendarDateRule, "23:59": timeOfDayRule, "Europe/Berlin": timezoneRule,
		"UTC": timezoneRule, "team:web": tagKeyRule, "EUR": currencyRule, "0b1f6471-1bf0-4dda-aec3-cb9272f09590": filterAccountRule,
	}
	for v, rule := range good {
		if msg := rule(v); msg != "" {
			t.Errorf("%q refused: %s", v, msg)
		}
	}
	bad := map[string]func(string) string{
		"http://localhost:1@evil.example/": webhookURLRule, "ftp://example.com/": webhookURLRule, "a@@example.com": emailRule,
		".a@example.com": emailRule, "2027-02-29": calendarDateRule, "24:00": timeOfDayRule, "Local": timezoneRule,
		" team": tagKeyRule, "a=b": tagKeyRule, "usd": currencyRule, "XXX": currencyRule, "12345": filterAccountRule,
	}
	for v, rule := range bad {
		if rule(v) == "" {
			t.Errorf("%q accepted", v)
		}
	}
	if budgetMoneyRule(0.1+0.2) != "" || budgetMoneyRule(1e12) != "" || budgetMoneyRule(10.005) == "" || budgetMoneyRule(0) == "" {
		t.Error("budget money rule")
	}
	if !isPeriodStart("quarterly", "2027-04-01") || isPeriodStart("quarterly", "2027-05-01") || isPeriodStart("annual", "2027-02-01") {
		t.Error("period starts")
	}
}
