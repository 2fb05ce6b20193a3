package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Tests that drive the real `tofu` themselves: they kill it, read its exit codes and its output. The provider
// is the binary TestMain built, installed through dev_overrides (no registry, no `tofu init`).

type tofuDir struct {
	dir string
	env []string
}

func newTofuDir(t *testing.T, config string) *tofuDir {
	t.Helper()
	acceptance(t)
	dir := t.TempDir()
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"cloudcost/cloudcost\" = %q\n  }\n  direct {}\n}\n", providerBin)
	if err := os.WriteFile(filepath.Join(dir, "tofurc"), []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &tofuDir{dir: dir, env: append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(dir, "tofurc"), "TF_IN_AUTOMATION=1", "NO_COLOR=1")}
	d.write(t, config)
	return d
}

func (d *tofuDir) write(t *testing.T, config string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(d.dir, "main.tf"), []byte(header+config), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (d *tofuDir) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), append(args, "-no-color")...)
	cmd.Dir = d.dir
	cmd.Env = d.env
	// Its own process group: killing it kills the provider plugin it started too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// run runs tofu and returns its output and exit code.
func (d *tofuDir) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := d.command(args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	}
	t.Fatalf("tofu %v: %v", args, err)
	return "", -1
}

func (d *tofuDir) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, code := d.run(t, args...)
	if code != 0 {
		t.Fatalf("tofu %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// unmanaged runs `cloudcost-unmanaged` on this directory's state.
func (d *tofuDir) unmanaged(t *testing.T) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(state, []byte(d.mustRun(t, "show", "-json")), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(filepath.Join(providerBin, "cloudcost-unmanaged"), "-state", state, "-dir", d.dir).CombinedOutput()
	if err != nil {
		t.Fatalf("cloudcost-unmanaged: %v\n%s", err, out)
	}
	return string(out)
}

// stateIDs lists the IDs of the resources in the state.
func (d *tofuDir) stateIDs(t *testing.T) map[string]string {
	t.Helper()
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string
					Values  map[string]any
				}
			} `json:"root_module"`
		}
	}
	out := d.mustRun(t, "show", "-json")
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &state); err != nil {
		t.Fatalf("tofu show -json: %v\n%s", err, out)
	}
	ids := map[string]string{}
	for _, r := range state.Values.RootModule.Resources {
		if id, ok := r.Values["id"].(string); ok {
			ids[r.Address] = id
		}
	}
	return ids
}

// `plan -refresh-only` shows a change made outside; `apply` restores it. And what a refresh costs, read in
// pages (read_listing.go): the first Read's GET and one listing page, at -parallelism 1 as at 10; a destroy,
// that refresh and one DELETE per resource.
func TestAccRefreshOnlyDriftAndRefreshCost(t *testing.T) {
	acceptance(t)
	const n = 20
	var config strings.Builder
	for i := range n {
		fmt.Fprintf(&config, "resource \"cloudcost_cloud_group\" \"g%d\" {\n  name = \"tfacc-refresh-%d\"\n  description = \"as configured\"\n}\n", i, i)
	}
	d := newTofuDir(t, config.String())
	sandbox.resetCounts()
	d.mustRun(t, "apply", "-auto-approve", "-parallelism=4")
	applied := sandbox.snapshot()
	// And a dry-run per group at plan and at apply's own plan (issue 38, plan_check.go): OpenTofu plans again
	// while it applies.
	if applied["POST /groups"] != n || applied["POST /groups:validate"] != 2*n || len(applied) != 2 {
		t.Errorf("creating %d groups without members should take %d POSTs, %d dry-runs and nothing else, took %v", n, n, 2*n, applied)
	}
	id := d.stateIDs(t)["cloudcost_cloud_group.g0"]
	if status := sandbox.api(t, "PATCH", "/groups/"+id, map[string]string{"description": "changed outside"}, nil); status != 200 {
		t.Fatalf("changing the group outside: %d", status)
	}

	inPages := map[string]int{"GET /groups/{id}": 1, "GET /groups": 1}
	for _, parallelism := range []string{"-parallelism=10", "-parallelism=1"} {
		sandbox.resetCounts()
		out, code := d.run(t, "plan", "-refresh-only", "-detailed-exitcode", parallelism)
		refresh := sandbox.snapshot()
		if code != 2 || !strings.Contains(out, `"as configured" -> "changed outside"`) {
			t.Fatalf("plan -refresh-only %s should show the change made outside (exit 2), got %d\n%s", parallelism, code, out)
		}
		if !maps.Equal(refresh, inPages) {
			t.Errorf("a refresh of %d groups at %s should cost %v, cost %v", n, parallelism, inPages, refresh)
		}
	}

	d.mustRun(t, "apply", "-auto-approve")
	var group struct{ Description string }
	sandbox.api(t, "GET", "/groups/"+id, nil, &group)
	if group.Description != "as configured" {
		t.Errorf("apply should restore the description, the service has %q", group.Description)
	}
	if _, code := d.run(t, "plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan after apply should be empty")
	}
	sandbox.resetCounts()
	d.mustRun(t, "destroy", "-auto-approve")
	if destroyed, want := sandbox.snapshot(), map[string]int{"GET /groups/{id}": 1, "GET /groups": 1, "DELETE /groups/{id}": n}; !maps.Equal(destroyed, want) {
		t.Errorf("a destroy of %d groups should cost %v, cost %v", n, want, destroyed)
	}
}

// Settings refused with a message naming the setting (and its environment variable), before any request.
func TestAccProviderSettingsRefused(t *testing.T) {
	acceptance(t)
	const config = `
data "cloudcost_accounts" "all" {}
`
	for _, c := range []struct {
		env  []string
		says []string
	}{
		{[]string{"CLOUDCOST_API_URL=https://cc.example.com/portal/settings"}, []string{"api_url (or CLOUDCOST_API_URL)", "points at the portal", "https://cc.example.com/api/v1"}},
		{[]string{"CLOUDCOST_API_URL="}, []string{"api_url (or CLOUDCOST_API_URL) is not set"}},
		{[]string{"CLOUDCOST_API_TOKEN="}, []string{"no credentials", "api_token (or CLOUDCOST_API_TOKEN)", "client_id (or CLOUDCOST_CLIENT_ID)"}},
		{[]string{"CLOUDCOST_API_TOKEN=", "CLOUDCOST_CLIENT_ID=cli_x"}, []string{"client_secret (or CLOUDCOST_CLIENT_SECRET) is needed"}},
	} {
		d := newTofuDir(t, config)
		d.env = append(d.env, c.env...)
		sandbox.resetCounts()
		out, code := d.run(t, "plan")
		flat := strings.Join(strings.Fields(out), " ")
		if code == 0 {
			t.Errorf("%v: plan should fail", c.env)
		}
		for _, s := range c.says {
			if !strings.Contains(flat, s) {
				t.Errorf("%v: the message should say %q:\n%s", c.env, s, out)
			}
		}
		if n := sandbox.snapshot(); len(n) != 0 {
			t.Errorf("%v: refused settings sent requests: %v", c.env, n)
		}
	}
}

// OAuth client credentials instead of a token: the provider fetches a token from the sandbox's
// authorization server (auth_url defaults to the API's origin) and reads with it.
func TestAccClientCredentials(t *testing.T) {
	acceptance(t)
	cli := sandbox.oauthClient(t)
	d := newTofuDir(t, `
data "cloudcost_accounts" "all" {}
output "first" { value = data.cloudcost_accounts.all.accounts[0].account_id }
`)
	// The proxy's origin serves /oauth/token too; no token in the environment.
	d.env = append(d.env, "CLOUDCOST_API_TOKEN=", "CLOUDCOST_CLIENT_ID="+cli.ClientID, "CLOUDCOST_CLIENT_SECRET="+cli.ClientSecret)
	sandbox.resetCounts()
	applied := d.mustRun(t, "apply", "-auto-approve")
	if !strings.Contains(applied, `first = "111122223333"`) {
		t.Errorf("the accounts should be read with the client's token:\n%s", applied)
	}
	if n := sandbox.snapshot(); n["POST /oauth/token"] != 1 {
		t.Errorf("one token request per provider process, got %v", n)
	}
	d.env = append(d.env, "CLOUDCOST_CLIENT_SECRET=wrong-secret")
	refused, code := d.run(t, "plan")
	if code == 0 || !strings.Contains(refused, "invalid_client") || strings.Contains(refused, "wrong-secret") {
		t.Errorf("a wrong secret should be refused with invalid_client, never echoed (exit %d):\n%s", code, refused)
	}
}
