package client

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The client is held to api/openapi.json, the contract the TypeScript client, the sandbox and the Pulumi
// doors are generated from: every Go type below must have exactly the fields of its schema (JSON names),
// with matching types, a pointer where the schema allows null, omitempty only where a request may leave the
// field out; and every operation of the table must have the document's method, path, status and
// idempotency. A field added to the contract fails this test until the client has it.

type schema = map[string]any

func loadDocument(t *testing.T) schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "api", "openapi.json"))
	if err != nil {
		t.Fatalf("reading the contract: %v", err)
	}
	var doc schema
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("parsing the contract: %v", err)
	}
	return doc
}

type checker struct {
	components schema
	problems   []string
}

func (c *checker) resolve(s schema) schema {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		s = c.components[strings.TrimPrefix(ref, "#/components/schemas/")].(schema)
	}
}

// types lists a schema's JSON types; nullable when "null" is among them.
func types(s schema) (kinds []string, nullable bool) {
	switch t := s["type"].(type) {
	case string:
		kinds = []string{t}
	case []any:
		for _, k := range t {
			kinds = append(kinds, k.(string))
		}
	}
	if i := slices.Index(kinds, "null"); i >= 0 {
		return slices.Delete(kinds, i, i+1), true
	}
	return kinds, false
}

// object merges a schema's variants (oneOf of objects: Member, Schedule) into one property set; a property
// is required only when every variant requires it, and nullable when a variant allows null or lacks it.
func (c *checker) object(s schema) (props map[string]schema, required map[string]bool, ok bool) {
	s = c.resolve(s)
	if p, has := s["properties"].(schema); has {
		props = map[string]schema{}
		for name, v := range p {
			props[name] = v.(schema)
		}
		required = map[string]bool{}
		for _, r := range asList(s["required"]) {
			required[r.(string)] = true
		}
		return props, required, true
	}
	variants := asList(s["oneOf"])
	if len(variants) == 0 {
		return nil, nil, false
	}
	props, required = map[string]schema{}, map[string]bool{}
	count := map[string]int{}
	for _, v := range variants {
		vp, vr, isObject := c.object(v.(schema))
		if !isObject {
			return nil, nil, false
		}
		for name, p := range vp {
			if prev, seen := props[name]; seen {
				props[name] = merge(c.resolve(prev), c.resolve(p))
			} else {
				props[name] = p
			}
			if vr[name] {
				count[name]++
			}
		}
	}
	for name := range props {
		required[name] = count[name] == len(variants)
	}
	return props, required, true
}

// merge is the union of two property schemas (a variant's `"type": "null"` day field with another's string).
func merge(a, b schema) schema {
	ka, na := types(a)
	kb, nb := types(b)
	kinds := slices.Compact(slices.Sorted(slices.Values(append(ka, kb...))))
	out := schema{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	list := []any{}
	for _, k := range kinds {
		list = append(list, k)
	}
	if na || nb || len(ka) == 0 || len(kb) == 0 {
		list = append(list, "null")
	}
	out["type"] = list
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

type jsonField struct {
	name      string
	omitempty bool
	typ       reflect.Type
}

func fieldsOf(t reflect.Type) map[string]jsonField {
	out := map[string]jsonField{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "" || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		out[name] = jsonField{name: name, omitempty: strings.Contains(opts, "omitempty"), typ: f.Type}
	}
	return out
}

// check compares schema s with Go type t at where; request says whether the client sends it.
func (c *checker) check(where string, s schema, t reflect.Type, request bool) {
	s = c.resolve(s)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	kinds, _ := types(s)
	if props, required, isObject := c.object(s); isObject {
		if t.Kind() != reflect.Struct {
			c.fail("%s: the contract has an object, the client a %s", where, t)
			return
		}
		fields := fieldsOf(t)
		for _, name := range sortedKeys(props) {
			f, ok := fields[name]
			if !ok {
				c.fail("%s.%s: in the contract, missing from %s", where, name, t.Name())
				continue
			}
			prop := c.resolve(props[name])
			_, nullable := types(prop)
			if variants := asList(prop["oneOf"]); len(variants) > 0 && !nullable {
				_, nullable = types(props[name])
			}
			isPointer := f.typ.Kind() == reflect.Pointer
			switch {
			case request && required[name] && f.omitempty && f.typ.Kind() != reflect.Pointer:
				c.fail("%s.%s: required, so it must not be omitempty", where, name)
			case request && !required[name] && !f.omitempty:
				c.fail("%s.%s: optional in the request, so it must be omitempty (the service's default applies)", where, name)
			case !request && nullable && !isPointer:
				c.fail("%s.%s: the contract allows null, so the client needs a pointer", where, name)
			case !request && !nullable && required[name] && isPointer:
				c.fail("%s.%s: always present and never null, so not a pointer", where, name)
			}
			c.check(where+"."+name, props[name], f.typ, request)
		}
		for _, name := range sortedKeys(fields) {
			if _, ok := props[name]; !ok {
				c.fail("%s.%s: in %s, not in the contract", where, name, t.Name())
			}
		}
		return
	}
	if len(kinds) == 0 {
		return // an enum of strings by $ref resolved above, or `{}`: nothing more to hold
	}
	want := map[string]reflect.Kind{"string": reflect.String, "number": reflect.Float64, "integer": reflect.Int, "boolean": reflect.Bool, "array": reflect.Slice}[kinds[0]]
	if t.Kind() != want {
		c.fail("%s: the contract has %s, the client %s", where, kinds[0], t)
		return
	}
	if want == reflect.Slice {
		c.check(where+"[]", s["items"].(schema), t.Elem(), request)
	}
}

func (c *checker) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// bodies: each Go type the client sends or decodes, with the schema it must equal.
var bodies = []struct {
	schema  string
	value   any
	request bool
}{
	{"CreateGroup", CreateGroup{}, true},
	{"UpdateGroup", UpdateGroup{}, true},
	{"ReplaceMembers", ReplaceMembers{}, true},
	{"GroupDraft", GroupDraft{}, true},
	{"AlertInput", AlertInput{}, true},
	{"ReportInput", ReportInput{}, true},
	{"CloudGroup", CloudGroup{}, false},
	{"CloudGroupPage", page[CloudGroup]{}, false},
	{"MemberList", MemberList{}, false},
	{"BudgetAlert", BudgetAlert{}, false},
	{"BudgetAlertPage", page[BudgetAlert]{}, false},
	{"ScheduledReport", ScheduledReport{}, false},
	{"ScheduledReportPage", page[ScheduledReport]{}, false},
	{"Organization", Organization{}, false},
	{"ConnectedAccountPage", page[ConnectedAccount]{}, false},
	{"SigningSecret", SigningSecret{}, false},
	{"IdempotencyRecordPage", page[IdempotencyRecord]{}, false},
	{"CostSummary", CostSummary{}, false},
	{"CostByService", CostByService{}, false},
	{"CostByDay", CostByDay{}, false},
	{"CostForecast", CostForecast{}, false},
	{"CostComparison", CostComparison{}, false},
	{"Problem", Problem{}, false},
	{"TokenResponse", tokenResponse{}, false},
}

func TestTypesMatchTheContract(t *testing.T) {
	doc := loadDocument(t)
	c := &checker{components: doc["components"].(schema)["schemas"].(schema)}
	for _, b := range bodies {
		s, ok := c.components[b.schema].(schema)
		if !ok {
			t.Errorf("%s: no such schema in the contract", b.schema)
			continue
		}
		c.check(b.schema, s, reflect.TypeOf(b.value), b.request)
	}
	for _, p := range c.problems {
		t.Error(p)
	}
}

// notCalled: the operations of the contract the provider does not call, and why.
var notCalled = map[string]string{
	"listInsights":        "findings are read in the portal and by the policy pack, not managed by Terraform",
	"acknowledgeInsights": "an action, not a resource", "listWaste": "as listInsights", "acknowledgeWaste": "an action, not a resource",
	"listRecommendations": "as listInsights", "acknowledgeRecommendations": "an action, not a resource",
	"getFilters":   "the accounts data source reads listAccounts; the groups are resources",
	"addMember":    "cloud_group sets the whole member set with replaceMembers",
	"removeMember": "cloud_group sets the whole member set with replaceMembers",
	"startScan":    "an action, not a resource", "listScans": "scans are not managed by Terraform", "getScan": "as listScans",
	"listEvents": "events are history, not configuration", "getEvent": "as listEvents", "listDeliveries": "as listEvents",
	"redeliverEvent":             "an action, not a resource",
	"rotateWebhookSigningSecret": "an action; the data source and the ephemeral resource read the secret",
	"getOpenApiDocument":         "the document itself", "token": "called by the client-credentials token source (token_source.go)",
	"authorizationServerMetadata": "the token source is configured with auth_url", "authorize": "interactive sign-in only",
	"registerClient": "clients are registered in the portal", "revokeToken": "tokens live only as long as the provider process",
	"introspectToken": "for resource servers",
}

func TestOperationsMatchTheContract(t *testing.T) {
	doc := loadDocument(t)
	seen := map[string]bool{}
	for p, item := range doc["paths"].(schema) {
		for method, raw := range item.(schema) {
			op, ok := raw.(schema)
			if !ok || op["operationId"] == nil {
				continue
			}
			id := op["operationId"].(string)
			seen[id] = true
			r, inTable := operations[id]
			if !inTable {
				if _, explained := notCalled[id]; !explained {
					t.Errorf("%s (%s %s): in the contract, neither in the client's table nor in notCalled", id, strings.ToUpper(method), p)
				}
				continue
			}
			if r.method != strings.ToUpper(method) || r.path != p {
				t.Errorf("%s: the client sends %s %s, the contract has %s %s", id, r.method, r.path, strings.ToUpper(method), p)
			}
			if _, ok := op["responses"].(schema)[fmt.Sprint(r.status)]; !ok {
				t.Errorf("%s: the client expects %d, which the contract does not list", id, r.status)
			}
			keyed := false
			for _, param := range asList(op["parameters"]) {
				if strings.EqualFold(param.(schema)["name"].(string), "Idempotency-Key") {
					keyed = true
				}
			}
			if keyed != r.idempotent {
				t.Errorf("%s: idempotent is %v in the client, the contract's Idempotency-Key parameter says %v", id, r.idempotent, keyed)
			}
		}
	}
	for id := range operations {
		if !seen[id] {
			t.Errorf("%s: in the client's table, not in the contract", id)
		}
	}
	for id := range notCalled {
		if !seen[id] {
			t.Errorf("%s: in notCalled, not in the contract", id)
		}
	}
}

func TestCostQueryHasEveryParameterOfTheContract(t *testing.T) {
	doc := loadDocument(t)
	full := CostQuery{From: "f", To: "t", GroupID: "g", Providers: []string{"p"}, AccountIDs: []string{"a"}, Services: []string{"s"}, Regions: []string{"r"}, Tags: []string{"k=v"}}
	sent := sortedKeys(full.Values())
	for _, id := range []string{"getCostSummary", "getCostByService", "getCostByDay", "getCostForecast", "getCostComparison"} {
		r := operations[id]
		op := doc["paths"].(schema)[r.path].(schema)["get"].(schema)
		var names []string
		for _, p := range asList(op["parameters"]) {
			if p.(schema)["in"] == "query" {
				names = append(names, p.(schema)["name"].(string))
			}
		}
		sort.Strings(names)
		if !slices.Equal(names, sent) {
			t.Errorf("%s: the contract's query parameters are %v, CostQuery sends %v", id, names, sent)
		}
	}
}
