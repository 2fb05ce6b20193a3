// Command cloudcost-unmanaged lists what the organization holds but no Terraform state manages: first the
// objects this configuration's own creates made in the last 24 hours (found by its create-key prefix, see
// internal/provider/create_key.go) — the leftovers of an interrupted apply, which the next apply never
// recognises (a create key is never sent by two processes) — then, with -all, every group, alert and report
// of the organization.
//
//	tofu show -json > state.json
//	go run ./cmd/cloudcost-unmanaged -state state.json -dir "$PWD"   # from terraform-provider-cloudcost/
//
// It reads the same settings as the provider (CLOUDCOST_API_URL, CLOUDCOST_API_TOKEN or the client
// credentials) and changes nothing: it prints each object with the import block that would adopt it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/provider"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cloudcost-unmanaged:", err)
		os.Exit(1)
	}
}

// stateValues is the part of `tofu show -json` read here.
type stateValues struct {
	Values struct {
		RootModule module `json:"root_module"`
	} `json:"values"`
}

type module struct {
	Resources []struct {
		Type   string         `json:"type"`
		Mode   string         `json:"mode"`
		Values map[string]any `json:"values"`
	} `json:"resources"`
	ChildModules []module `json:"child_modules"`
}

func (m module) ids(into map[string]bool) {
	for _, r := range m.Resources {
		if id, ok := r.Values["id"].(string); ok && r.Mode == "managed" && strings.HasPrefix(r.Type, "cloudcost_") {
			into[id] = true
		}
	}
	for _, c := range m.ChildModules {
		c.ids(into)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("cloudcost-unmanaged", flag.ContinueOnError)
	statePath := fs.String("state", "", "the output of `tofu show -json` (several files: comma-separated, one per state)")
	dir := fs.String("dir", "", "the root module's directory, when the provider's create_key_scope is not set")
	scope := fs.String("create-key-scope", os.Getenv("CLOUDCOST_CREATE_KEY_SCOPE"), "the provider's create_key_scope, when set")
	all := fs.Bool("all", false, "also list every group, alert and report of the organization that no given state holds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *statePath == "" || (*scope == "" && *dir == "") {
		return fmt.Errorf("-state is needed, and -dir or -create-key-scope (the scope the provider's create keys were derived from)")
	}
	managed := map[string]bool{}
	for _, p := range strings.Split(*statePath, ",") {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var s stateValues
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("%s is not the output of `tofu show -json`: %w", p, err)
		}
		s.Values.RootModule.ids(managed)
	}
	// The workspace is read where the provider reads it (create_key.go): TF_WORKSPACE, else the one selected in -dir.
	if *dir != "" {
		if err := os.Chdir(*dir); err != nil {
			return err
		}
	}
	keys, err := provider.NewCreateKeys(*scope)
	if err != nil {
		return err
	}
	apiURL, err := client.NormaliseAPIURL(os.Getenv("CLOUDCOST_API_URL"), "CLOUDCOST_API_URL")
	if err != nil {
		return err
	}
	c, err := client.New(client.Options{BaseURL: apiURL, APIToken: os.Getenv("CLOUDCOST_API_TOKEN"),
		ClientID: os.Getenv("CLOUDCOST_CLIENT_ID"), ClientSecret: os.Getenv("CLOUDCOST_CLIENT_SECRET"), AuthURL: os.Getenv("CLOUDCOST_AUTH_URL")})
	if err != nil {
		return err
	}
	ctx := context.Background()
	records, err := c.ListIdempotencyKeys(ctx, keys.Prefix())
	if err != nil {
		return err
	}
	found := 0
	fmt.Fprintf(out, "Made by this configuration's creates (keys %s…) in the last 24 hours, in no state:\n", keys.Prefix())
	for _, r := range records {
		if r.ResourceID != nil && !managed[*r.ResourceID] {
			found++
			fmt.Fprintf(out, "  %s  %s  %q  (created %s)\n%s", typeOf(*r.ResourceID), *r.ResourceID, nameOf(ctx, c, *r.ResourceID), r.CreatedAt,
				importBlock(*r.ResourceID))
		}
	}
	if found == 0 {
		fmt.Fprintln(out, "  none")
	}
	if !*all {
		return nil
	}
	fmt.Fprintln(out, "Everything else of the organization in no state:")
	var ids []string
	groups, err := c.ListGroups(ctx)
	if err != nil {
		return err
	}
	for _, g := range groups {
		ids = append(ids, g.ID)
	}
	alerts, err := c.ListAlerts(ctx)
	if err != nil {
		return err
	}
	for _, a := range alerts {
		ids = append(ids, a.ID)
	}
	reports, err := c.ListReports(ctx)
	if err != nil {
		return err
	}
	for _, r := range reports {
		ids = append(ids, r.ID)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if !managed[id] {
			fmt.Fprintf(out, "  %s  %s\n", typeOf(id), id)
		}
	}
	return nil
}

// nameOf is the object's name, so that a leftover can be matched to the address that should hold it.
func nameOf(ctx context.Context, c *client.Client, id string) string {
	var name string
	var err error
	switch typeOf(id) {
	case "cloudcost_cloud_group":
		var g *client.CloudGroup
		if g, err = c.GetGroup(ctx, id); err == nil {
			name = g.Name
		}
	case "cloudcost_budget_alert":
		var a *client.BudgetAlert
		if a, err = c.GetAlert(ctx, id); err == nil {
			name = a.Name
		}
	case "cloudcost_scheduled_report":
		var r *client.ScheduledReport
		if r, err = c.GetReport(ctx, id); err == nil {
			name = r.Name
		}
	}
	if err != nil {
		return "(name not read: " + err.Error() + ")"
	}
	return name
}

func typeOf(id string) string {
	switch {
	case strings.HasPrefix(id, "grp_"):
		return "cloudcost_cloud_group"
	case strings.HasPrefix(id, "alr_"):
		return "cloudcost_budget_alert"
	case strings.HasPrefix(id, "rpt_"):
		return "cloudcost_scheduled_report"
	}
	return "unknown"
}

func importBlock(id string) string {
	return fmt.Sprintf("    import {\n      to = %s.REPLACE_ME\n      id = %q\n    }\n", typeOf(id), id)
}
