package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// One configuration sends the same bytes however the CLI happens to order a set's elements.
func TestRequestBodyIgnoresSetOrder(t *testing.T) {
	p80, p100, a := 80.0, 100.0, 4500.0
	alert := func(reversed bool) budgetAlertModel {
		m := budgetAlertModel{
			Name: types.StringValue("Web"), Amount: types.Float64Value(5000), Currency: types.StringValue("USD"),
			Period: types.StringValue("monthly"), Enabled: types.BoolValue(true),
			Recipients: []string{"a@example.com", "b@example.com"},
			Thresholds: []thresholdModel{
				{Percent: &p80, Basis: "forecast", Recipients: []string{"x@example.com", "y@example.com"}},
				{Percent: &p100, Basis: "actual"},
				{Amount: &a, Basis: "actual", Recipients: []string{}},
			},
			PlannedAmounts: []plannedAmountModel{{PeriodStart: "2027-01-01", Amount: 1}, {PeriodStart: "2027-02-01", Amount: 2}},
			Filters: &costFiltersModel{Services: []string{"Amazon S3", "Amazon EC2"}, Tags: []tagFilterModel{
				{Key: "team", Values: []string{"web", "shop"}}, {Key: "env", Values: []string{"prod"}},
			}},
		}
		if reversed {
			rev := func(xs []string) []string {
				out := make([]string, len(xs))
				for i, x := range xs {
					out[len(xs)-1-i] = x
				}
				return out
			}
			m.Recipients = rev(m.Recipients)
			m.Thresholds = []thresholdModel{m.Thresholds[2], m.Thresholds[1],
				{Percent: &p80, Basis: "forecast", Recipients: []string{"y@example.com", "x@example.com"}}}
			m.PlannedAmounts = []plannedAmountModel{m.PlannedAmounts[1], m.PlannedAmounts[0]}
			m.Filters = &costFiltersModel{Services: rev(m.Filters.Services), Tags: []tagFilterModel{
				{Key: "env", Values: []string{"prod"}}, {Key: "team", Values: []string{"shop", "web"}},
			}}
		}
		return m
	}
	body := func(v any) string {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	one, other := alert(false), alert(true)
	if a, b := body(one.request(nil)), body(other.request(nil)); a != b {
		t.Errorf("alert bodies differ:\n%s\n%s", a, b)
	}
	// A threshold's recipients left out and given as [] are two requests (the alert's recipients, or nobody).
	leftOut := alert(false)
	leftOut.Thresholds[2].Recipients = nil
	if body(one.request(nil)) == body(leftOut.request(nil)) {
		t.Error("recipients [] and left out must stay apart in the body")
	}
	report := func(recipients ...string) scheduledReportModel {
		return scheduledReportModel{Name: types.StringValue("R"), Report: types.StringValue("daily"), Format: types.StringValue("csv"),
			Enabled: types.BoolValue(true), Recipients: recipients, Schedule: &scheduleModel{Frequency: "daily", Time: "06:00", Timezone: "UTC"}}
	}
	r1, r2 := report("a@example.com", "b@example.com"), report("b@example.com", "a@example.com")
	if a, b := body(r1.request(nil)), body(r2.request(nil)); a != b {
		t.Errorf("report bodies differ:\n%s\n%s", a, b)
	}
}
