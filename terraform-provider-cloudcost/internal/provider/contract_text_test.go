package provider

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// Issue 37: the rules on text the service and this provider must agree on, each from one definition (the
// service's), held at the boundaries.

// The trim is JavaScript's, code point for code point: the fixture is written from, and held to, the
// runtime the service runs on (test/contract/whitespace-and-length.test.ts).
func TestTrimIsTheServicesTrim(t *testing.T) {
	data, err := os.ReadFile("../../../test/contract/fixtures/ecmascript-whitespace.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Whitespace []rune      `json:"whitespace"`
		Trim       [][2]string `json:"trim"`
	}
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatal(err)
	}
	want := map[rune]bool{}
	for _, r := range fixture.Whitespace {
		want[r] = true
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if (r < 0xD800 || r > 0xDFFF) && isECMAScriptWhitespace(r) != want[r] {
			t.Errorf("U+%04X: whitespace here %v, to the service %v", r, isECMAScriptWhitespace(r), want[r])
		}
	}
	for _, v := range fixture.Trim {
		if got := trimECMAScript(v[0]); got != v[1] {
			t.Errorf("trim(%q) = %q, the service's %q", v[0], got, v[1])
		}
		if !sameTrimmed(v[0], v[1]) {
			t.Errorf("%q and %q are one name to the service", v[0], v[1])
		}
	}
}

// Lengths count characters (code points), as zod's max and JSON Schema's maxLength do: the boundary and one
// past it, with characters outside the Basic Multilingual Plane.
func TestLengthsCountCharacters(t *testing.T) {
	const emoji = "\U0001F4B8" // two UTF-16 units, one character
	cases := []struct {
		value string
		rule  func(string) bool
		ok    bool
	}{
		{strings.Repeat(emoji, 100), nameFits, true},
		{strings.Repeat(emoji, 101), nameFits, false},
		{"\ufeff " + strings.Repeat(emoji, 100) + "\u3000", nameFits, true},
		{"\ufeff\u2028", nameFits, false},
		{strings.Repeat(emoji, 500), descriptionFits, true},
		{strings.Repeat(emoji, 501), descriptionFits, false},
	}
	for _, c := range cases {
		if got := c.rule(c.value); got != c.ok {
			t.Errorf("%d characters (%q…): fits %v, want %v", utf8.RuneCountInString(c.value), c.value[:8], got, c.ok)
		}
	}
}

func nameFits(v string) bool {
	n := characters(trimECMAScript(v))
	return n >= 1 && n <= maxNameLength
}
func descriptionFits(v string) bool { return characters(v) <= maxDescriptionLength }

// Every ID pattern the provider checks at plan is the document's, and the limits are its maxLength.
func TestIDPatternsAndLimitsAreTheDocuments(t *testing.T) {
	schemas := documentSchemas(t)
	prop := func(schema, name string) map[string]any {
		return schemas[schema]["properties"].(map[string]any)[name].(map[string]any)
	}
	for where, c := range map[string]struct {
		ours   resourceID
		schema map[string]any
	}{
		"AlertInput.groupId":  {groupIDPrefix, prop("AlertInput", "groupId")},
		"ReportInput.groupId": {groupIDPrefix, prop("ReportInput", "groupId")},
		"AlertId":             {alertIDPrefix, schemas["AlertId"]},
		"ReportId":            {reportIDPrefix, schemas["ReportId"]},
		"CloudGroup.id":       {groupIDPrefix, prop("CloudGroup", "id")},
	} {
		if got := c.ours.pattern().String(); got != c.schema["pattern"] {
			t.Errorf("%s: provider checks %s, api/openapi.json states %v", where, got, c.schema["pattern"])
		}
	}
	if groupIDPrefix.rule("Production") == "" || groupIDPrefix.rule("grp_01j9z6w3k2m4n5p6q7r8") != "" || alertIDPrefix.rule("grp_01j9z6w3k2m4n5p6q7r8") == "" {
		t.Error("ID rule")
	}
	for where, c := range map[string]struct {
		ours   int
		schema map[string]any
	}{
		"CreateGroup.name":        {maxNameLength, prop("CreateGroup", "name")},
		"CreateGroup.description": {maxDescriptionLength, prop("CreateGroup", "description")},
		"AlertInput.name":         {maxNameLength, prop("AlertInput", "name")},
		"ReportInput.name":        {maxNameLength, prop("ReportInput", "name")},
	} {
		if c.schema["maxLength"] != float64(c.ours) {
			t.Errorf("%s: provider allows %d, api/openapi.json %v", where, c.ours, c.schema["maxLength"])
		}
	}
}

// The time-zone names are the contract's list (api/src/contract/time-zones.json, `npm run time-zones`).
func TestTimeZonesAreTheContracts(t *testing.T) {
	data, err := os.ReadFile("../../../api/src/contract/time-zones.json")
	if err != nil {
		t.Fatal(err)
	}
	var contract struct{ Names []string }
	if err := json.Unmarshal(data, &contract); err != nil {
		t.Fatal(err)
	}
	var ours []string
	for name := range timeZoneNames {
		ours = append(ours, name)
	}
	sort.Strings(ours)
	sort.Strings(contract.Names)
	if !equalStrings(ours, contract.Names) {
		t.Errorf("time_zones.txt (%d names) is not api/src/contract/time-zones.json (%d): run npm run time-zones", len(ours), len(contract.Names))
	}
	for _, name := range []string{"Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "Europe/Kiev", "UTC", "Etc/GMT+5", "America/Ciudad_Juarez"} {
		if msg := timezoneRule(name); msg != "" {
			t.Errorf("%s refused: %s", name, msg)
		}
	}
	for _, name := range []string{"PST", "IST", "europe/berlin", "Local", "Factory", "posix/Europe/Berlin", "", "+05:30"} {
		if timezoneRule(name) == "" {
			t.Errorf("%q accepted: the IANA database gives no such name", name)
		}
	}
}

func documentSchemas(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile("../../../api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Components.Schemas
}

// Every field of the contract's request bodies, nested ones included, maps to an attribute of the resource
// that sends it (a field error the service finds is reported there, in Terraform's names).
func TestEveryRequestFieldMapsToAnAttribute(t *testing.T) {
	schemas := documentSchemas(t)
	ctx := context.Background()
	for component, r := range map[string]struct {
		res  resource.Resource
		sets func(string) (path.Path, bool)
	}{
		"AlertInput":  {NewBudgetAlertResource(), alertSets},
		"ReportInput": {NewScheduledReportResource(), reportSets},
		"CreateGroup": {NewCloudGroupResource(), groupFieldPath(nil)},
		// The members are sent apart (PUT /groups/{id}/members) and land on the two ID sets.
		"ReplaceMembers": {NewCloudGroupResource(), groupFieldPath(nil)},
	} {
		var resp resource.SchemaResponse
		r.res.Schema(ctx, resource.SchemaRequest{}, &resp)
		fields := contractFieldPaths(schemas, schemas[component], "body")
		if component == "AlertInput" && !strings.Contains(strings.Join(fields, " "), "body.filters.accountIds.0") {
			t.Fatalf("%s: the walk missed nested fields: %v", component, fields)
		}
		for _, field := range fields {
			p, ok := r.sets(field)
			if !ok {
				t.Errorf("%s: %s maps to no attribute", component, field)
				continue
			}
			if _, diags := resp.Schema.AttributeAtPath(ctx, p); diags.HasError() {
				t.Errorf("%s: %s maps to %s, which the resource does not have", component, field, p)
			}
		}
	}
}

// contractFieldPaths lists the paths the service can name in a body of this schema: `body.filters.accountIds.0`.
func contractFieldPaths(schemas map[string]map[string]any, s map[string]any, at string) []string {
	if ref, ok := s["$ref"].(string); ok {
		return contractFieldPaths(schemas, schemas[strings.TrimPrefix(ref, "#/components/schemas/")], at)
	}
	var out []string
	for _, key := range []string{"oneOf", "anyOf", "allOf"} {
		for _, alt := range asSchemas(s[key]) {
			out = append(out, contractFieldPaths(schemas, alt, at)...)
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		out = append(out, at+".0")
		out = append(out, contractFieldPaths(schemas, items, at+".0")...)
	}
	props, _ := s["properties"].(map[string]any)
	for name, sub := range props {
		out = append(out, at+"."+name)
		if m, ok := sub.(map[string]any); ok {
			out = append(out, contractFieldPaths(schemas, m, at+"."+name)...)
		}
	}
	return out
}

func asSchemas(v any) []map[string]any {
	list, _ := v.([]any)
	var out []map[string]any
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
