package provider_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// One contract, three front doors. The request fields of api/openapi.json (the contract), the inputs of the
// native Pulumi schema (native/schema.json, camelCase) and the arguments of this provider as OpenTofu reports
// them (`tofu providers schema -json`, snake_case) must be the same set, nested objects included, with the
// same sensitivity in both provider doors. A field added to one door only fails here, naming the door that
// lacks it. Deliberate differences are listed below with their reason.

// doorKinds: each resource of the native schema, its Terraform type and the contract's request body schemas.
var doorKinds = []struct {
	native, terraform string
	bodies            []string
}{
	{"cloudcost:index:CloudGroup", "cloudcost_cloud_group", []string{"CreateGroup", "ReplaceMembers"}},
	{"cloudcost:index:BudgetAlert", "cloudcost_budget_alert", []string{"AlertInput"}},
	{"cloudcost:index:ScheduledReport", "cloudcost_scheduled_report", []string{"ReportInput"}},
}

// doorReads: each function of the native schema that doorReads, its data source and the operation whose query (or,
// without one, nothing) it takes.
var doorReads = []struct {
	native, terraform, operation string
}{
	{"cloudcost:index:getCostSummary", "cloudcost_cost_summary", "getCostSummary"},
	{"cloudcost:index:getCostByService", "cloudcost_cost_by_service", "getCostByService"},
	{"cloudcost:index:getCostByDay", "cloudcost_cost_by_day", "getCostByDay"},
	{"cloudcost:index:getCostForecast", "cloudcost_cost_forecast", "getCostForecast"},
	{"cloudcost:index:getCostComparison", "cloudcost_cost_comparison", "getCostComparison"},
	{"cloudcost:index:getAccounts", "cloudcost_accounts", "listAccounts"},
	{"cloudcost:index:getWebhookSigningSecret", "cloudcost_webhook_signing_secret", "getWebhookSigningSecret"},
}

// Deliberate differences, by contract name.
var (
	// The contract sets a group's members with one body (`members: [{provider, accountId}]`); both provider
	// doors split it into one set per provider, as users write them.
	membersSplit = []string{"awsAccountIds", "azureSubscriptionIds"}
	// Paging is the client's business in every door: lists are read to the end.
	pagingParameters = map[string]bool{"limit": true, "cursor": true}
	// Terraform-only provider settings.
	terraformOnlySettings = map[string]string{
		"createKeyScope": "Terraform gives a provider no resource address; the create key's scope stands in for Pulumi's stack (create_key.go)",
	}
)

type doorField struct {
	sensitive bool
	children  map[string]*doorField
}

func camelName(snake string) string {
	parts := strings.Split(snake, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			r := []rune(parts[i])
			r[0] = unicode.ToUpper(r[0])
			parts[i] = string(r)
		}
	}
	return strings.Join(parts, "")
}

func readDoorJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func asObject(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asList(v any) []any            { l, _ := v.([]any); return l }

// ---- the contract ----

type contractDoor struct{ schemas map[string]any }

func (c contractDoor) resolve(s map[string]any) map[string]any {
	for s["$ref"] != nil {
		s = asObject(c.schemas[strings.TrimPrefix(s["$ref"].(string), "#/components/schemas/")])
	}
	return s
}

// tree is the fields of a request schema: properties, variants of a oneOf merged, array items followed.
func (c contractDoor) tree(s map[string]any) map[string]*doorField {
	s = c.resolve(s)
	if s["type"] == "array" || (asList(s["type"]) != nil && listHas(asList(s["type"]), "array")) {
		return c.tree(asObject(s["items"]))
	}
	out := map[string]*doorField{}
	for name, p := range asObject(s["properties"]) {
		out[name] = &doorField{children: c.tree(asObject(p))}
	}
	for _, v := range asList(s["oneOf"]) {
		for name, n := range c.tree(asObject(v)) {
			out[name] = n
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func listHas(l []any, v any) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// ---- the native schema ----

type nativeDoor struct{ types map[string]any }

func (n nativeDoor) tree(props map[string]any) map[string]*doorField {
	if len(props) == 0 {
		return nil
	}
	out := map[string]*doorField{}
	for name, raw := range props {
		p := asObject(raw)
		out[name] = &doorField{sensitive: p["secret"] == true, children: n.nested(p)}
	}
	return out
}

func (n nativeDoor) nested(p map[string]any) map[string]*doorField {
	if items := asObject(p["items"]); items != nil {
		return n.nested(items)
	}
	if ref, ok := p["$ref"].(string); ok && strings.HasPrefix(ref, "#/types/") {
		return n.tree(asObject(asObject(n.types[strings.TrimPrefix(ref, "#/types/")])["properties"]))
	}
	return nil
}

// ---- this provider, as OpenTofu reports it ----

// tfInputs is the arguments of a block (attributes a configuration may set), keyed by contract name; the
// write-only form of an argument (`X_wo` with its `X_wo_version`) stands beside X and must be sensitive.
func tfInputs(t *testing.T, where string, attrs map[string]any) map[string]*doorField {
	out := map[string]*doorField{}
	for name, raw := range attrs {
		a := asObject(raw)
		if a["optional"] != true && a["required"] != true {
			continue // an output
		}
		if base, ok := strings.CutSuffix(name, "_wo_version"); ok && attrs[base+"_wo"] != nil {
			continue
		}
		if base, ok := strings.CutSuffix(name, "_wo"); ok {
			if a["write_only"] != true || a["sensitive"] != true || attrs[base] == nil {
				t.Errorf("%s.%s: a write-only form must be write_only and sensitive, beside %s", where, name, base)
			}
			continue
		}
		var children map[string]*doorField
		if nt := asObject(a["nested_type"]); nt != nil {
			children = tfInputs(t, where+"."+name, asObject(nt["attributes"]))
		}
		out[camelName(name)] = &doorField{sensitive: a["sensitive"] == true, children: children}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// compare reports every field of want missing from the other doors, every field a door has that the
// contract lacks, and a sensitivity the two provider doors disagree on.
func compareDoors(t *testing.T, where string, want, pulumi, terraform map[string]*doorField) {
	t.Helper()
	names := map[string]bool{}
	for _, m := range []map[string]*doorField{want, pulumi, terraform} {
		for k := range m {
			names[k] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		c, p, tf := want[name], pulumi[name], terraform[name]
		at := where + "." + name
		switch {
		case c == nil:
			if p != nil {
				t.Errorf("%s: in the native schema, not a request field of the contract", at)
			}
			if tf != nil {
				t.Errorf("%s (Terraform %s): an argument of the provider, not a request field of the contract", at, snakeName(name))
			}
			continue
		case p == nil && tf == nil:
			t.Errorf("%s: a request field of the contract, missing from the native schema and from the Terraform provider", at)
			continue
		case p == nil:
			t.Errorf("%s: a request field of the contract, missing from the native schema", at)
			continue
		case tf == nil:
			t.Errorf("%s: a request field of the contract, missing from the Terraform provider (%s)", at, snakeName(name))
			continue
		}
		if p.sensitive != tf.sensitive {
			t.Errorf("%s: secret in the native schema is %v, sensitive in Terraform is %v", at, p.sensitive, tf.sensitive)
		}
		if len(c.children) > 0 || len(p.children) > 0 || len(tf.children) > 0 {
			compareDoors(t, at, c.children, p.children, tf.children)
		}
	}
}

func snakeName(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func tofuProviderSchema(t *testing.T) map[string]any {
	t.Helper()
	d := newTofuDir(t, "")
	out := d.mustRun(t, "providers", "schema", "-json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &doc); err != nil {
		t.Fatalf("tofu providers schema -json: %v", err)
	}
	p := asObject(asObject(doc["provider_schemas"])["registry.opentofu.org/cloudcost/cloudcost"])
	if p == nil {
		t.Fatalf("tofu providers schema -json has no registry.opentofu.org/cloudcost/cloudcost")
	}
	return p
}

func TestAccThreeDoors(t *testing.T) {
	acceptance(t)
	tf := tofuProviderSchema(t)
	api := readDoorJSON(t, filepath.Join(repoRoot, "api", "openapi.json"))
	nat := readDoorJSON(t, filepath.Join(repoRoot, "native", "schema.json"))
	c := contractDoor{schemas: asObject(asObject(api["components"])["schemas"])}
	n := nativeDoor{types: asObject(nat["types"])}
	block := func(group, name string) map[string]any {
		return asObject(asObject(asObject(asObject(tf[group])[name])["block"]))
	}

	// Resources: every native resource has its Terraform type, and the three agree on the request fields.
	covered := map[string]bool{}
	for _, k := range doorKinds {
		covered[k.native] = true
		want := map[string]*doorField{}
		for _, body := range k.bodies {
			for name, f := range c.tree(asObject(c.schemas[body])) {
				want[name] = f
			}
		}
		if _, ok := want["members"]; ok {
			delete(want, "members")
			for _, name := range membersSplit {
				want[name] = &doorField{}
			}
		}
		res := asObject(asObject(nat["resources"])[k.native])
		if res == nil {
			t.Errorf("%s: not in the native schema", k.native)
			continue
		}
		b := block("resource_schemas", k.terraform)
		if b == nil {
			t.Errorf("%s: the native schema has %s, the Terraform provider has no %s", k.terraform, k.native, k.terraform)
			continue
		}
		if len(asObject(b["block_types"])) > 0 {
			t.Errorf("%s: nested objects must be nested attributes, not blocks", k.terraform)
		}
		compareDoors(t, k.terraform, want, n.tree(asObject(res["inputProperties"])), tfInputs(t, k.terraform, asObject(b["attributes"])))
	}
	for name := range asObject(nat["resources"]) {
		if !covered[name] {
			t.Errorf("%s: a native resource this test does not know; add it to doorKinds with its Terraform type", name)
		}
	}
	for name := range asObject(tf["resource_schemas"]) {
		found := false
		for _, k := range doorKinds {
			found = found || k.terraform == name
		}
		if !found {
			t.Errorf("%s: a Terraform resource with no native resource", name)
		}
	}

	// Reads: the query parameters of the operation, the native function's inputs, the data source's arguments;
	// outputs marked secret in one door are sensitive in the other.
	paths := asObject(api["paths"])
	operationQuery := func(id string) map[string]*doorField {
		for _, item := range paths {
			for _, op := range asObject(item) {
				if asObject(op)["operationId"] == id {
					out := map[string]*doorField{}
					for _, p := range asList(asObject(op)["parameters"]) {
						if asObject(p)["in"] == "query" && !pagingParameters[asObject(p)["name"].(string)] {
							out[asObject(p)["name"].(string)] = &doorField{}
						}
					}
					return out
				}
			}
		}
		t.Fatalf("%s: not an operation of the contract", id)
		return nil
	}
	known := map[string]bool{}
	for _, r := range doorReads {
		known[r.native] = true
		fn := asObject(asObject(nat["functions"])[r.native])
		b := block("data_source_schemas", r.terraform)
		if fn == nil || b == nil {
			t.Errorf("%s / %s: missing from a door (native function %v, data source %v)", r.native, r.terraform, fn != nil, b != nil)
			continue
		}
		compareDoors(t, r.terraform, operationQuery(r.operation), n.tree(asObject(asObject(fn["inputs"])["properties"])), tfInputs(t, r.terraform, asObject(b["attributes"])))
		for name, raw := range asObject(asObject(fn["outputs"])["properties"]) {
			secret := asObject(raw)["secret"] == true
			a := asObject(asObject(b["attributes"])[snakeName(name)])
			if a == nil {
				t.Errorf("%s.%s: an output of the native function, missing from the data source", r.terraform, snakeName(name))
			} else if (a["sensitive"] == true) != secret {
				t.Errorf("%s.%s: secret in the native schema is %v, sensitive in Terraform is %v", r.terraform, snakeName(name), secret, a["sensitive"] == true)
			}
		}
	}
	for name := range asObject(nat["functions"]) {
		if !known[name] {
			t.Errorf("%s: a native function this test does not know; add it to doorReads with its data source", name)
		}
	}

	// Provider configuration: the native config variables and the Terraform provider's arguments.
	pulumiConfig := n.tree(asObject(asObject(nat["config"])["variables"]))
	tfConfig := tfInputs(t, "provider", asObject(asObject(asObject(tf["provider"])["block"])["attributes"]))
	for name := range terraformOnlySettings {
		if tfConfig[name] == nil {
			t.Errorf("provider.%s: listed as a Terraform-only setting, but the provider has no %s", name, snakeName(name))
		}
		delete(tfConfig, name)
	}
	want := map[string]*doorField{}
	for name := range pulumiConfig {
		want[name] = &doorField{}
	}
	for name := range tfConfig {
		if want[name] == nil {
			want[name] = &doorField{}
		}
	}
	compareDoors(t, "provider", want, pulumiConfig, tfConfig)
}
