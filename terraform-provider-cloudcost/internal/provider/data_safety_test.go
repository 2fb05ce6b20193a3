package provider_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Issue 37: no sequence of ordinary OpenTofu commands gives one object to two resource instances, or deletes an
// object that another address, workspace or configuration manages. Each test drives the real `tofu` through a
// workflow that did exactly that while create keys were derived from the request body (create_key.go), and
// ends by checking the one invariant: every object a state records exists, and no object is recorded twice,
// across every state the test made.

// alertConfig is a budget alert block with the values every twin of these tests shares.
func alertConfig(address, name, extra string) string {
	return fmt.Sprintf(`
resource "cloudcost_budget_alert" %q {
  name       = %q
  amount     = 100
  thresholds = [{ percent = 80, basis = "actual" }]
%s}
`, address, name, extra)
}

// live lists the organization's alerts, groups and reports with this name, by ID.
func live(t *testing.T, name string) []string {
	t.Helper()
	var ids []string
	for _, kind := range []string{"alerts", "groups", "reports"} {
		var page struct {
			Items []struct{ ID, Name string }
		}
		sandbox.api(t, "GET", "/"+kind+"?limit=200", nil, &page)
		for _, o := range page.Items {
			if o.Name == name {
				ids = append(ids, o.ID)
			}
		}
	}
	sort.Strings(ids)
	return ids
}

// exists tells whether the service still holds the object.
func exists(t *testing.T, id string) bool {
	t.Helper()
	kind := map[string]string{"alr": "alerts", "grp": "groups", "rpt": "reports"}[id[:3]]
	return sandbox.api(t, "GET", "/"+kind+"/"+id, nil, nil) == 200
}

// managed lists every cloudcost object the state records, by address, modules included.
func (d *tofuDir) managed(t *testing.T) map[string]string {
	t.Helper()
	type module struct {
		Resources []struct {
			Address string
			Mode    string
			Values  map[string]any
		}
		ChildModules []json.RawMessage `json:"child_modules"`
	}
	var state struct {
		Values struct {
			RootModule json.RawMessage `json:"root_module"`
		}
	}
	out := d.mustRun(t, "show", "-json")
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &state); err != nil {
		t.Fatalf("tofu show -json: %v\n%s", err, out)
	}
	ids := map[string]string{}
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		if len(raw) == 0 {
			return
		}
		var m module
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Resources {
			if id, ok := r.Values["id"].(string); ok && r.Mode == "managed" {
				ids[r.Address] = id
			}
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(state.Values.RootModule)
	return ids
}

// ownedOnce fails the test when an object is recorded at two addresses (of one state or of several), or a
// recorded object no longer exists. states are labelled (a directory, a workspace) for the message.
func ownedOnce(t *testing.T, states map[string]map[string]string) {
	t.Helper()
	owner := map[string]string{}
	for label, ids := range states {
		for address, id := range ids {
			at := label + " " + address
			if first, ok := owner[id]; ok {
				t.Errorf("%s is recorded at two addresses: %s and %s", id, first, at)
			}
			owner[id] = at
			if !exists(t, id) {
				t.Errorf("%s records %s, which the service no longer holds", at, id)
			}
		}
	}
}

func (d *tofuDir) planIsEmpty(t *testing.T) {
	t.Helper()
	if out, code := d.run(t, "plan", "-detailed-exitcode"); code != 0 {
		t.Errorf("the plan should be empty (exit 0), exit %d:\n%s", code, out)
	}
}

// A forced replacement with create_before_destroy and unchanged values: the new object is made while the old
// one exists, then the old one is deleted. The state must end on a live object that is not the deleted one.
func TestAccReplaceBeforeDestroyKeepsANewObject(t *testing.T) {
	acceptance(t)
	const name = "tfds-replace"
	d := newTofuDir(t, alertConfig("b", name, "  lifecycle {\n    create_before_destroy = true\n  }\n"))
	d.mustRun(t, "apply", "-auto-approve")
	old := d.managed(t)["cloudcost_budget_alert.b"]
	out := d.mustRun(t, "apply", "-auto-approve", "-replace=cloudcost_budget_alert.b")
	if !strings.Contains(out, "1 added, 0 changed, 1 destroyed") {
		t.Errorf("the replacement should add one and destroy one:\n%s", out)
	}
	now := d.managed(t)["cloudcost_budget_alert.b"]
	if now == old || exists(t, old) || !exists(t, now) {
		t.Errorf("the replacement must leave a new, live object: was %s (exists %v), now %s (exists %v)", old, exists(t, old), now, exists(t, now))
	}
	if got := live(t, name); len(got) != 1 || got[0] != now {
		t.Errorf("the service should hold exactly the new alert %s, holds %v", now, got)
	}
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
}

// An address renamed without a `moved` block: OpenTofu creates the new address and destroys the old one. The
// old object's DELETE is held until the new create has been answered (the order that gave the new address the
// old object, which the delete then removed).
func TestAccRenamedAddressGetsItsOwnObject(t *testing.T) {
	acceptance(t)
	const name = "tfds-renamed"
	d := newTofuDir(t, alertConfig("old", name, ""))
	d.mustRun(t, "apply", "-auto-approve")
	old := d.managed(t)["cloudcost_budget_alert.old"]

	created := make(chan struct{})
	var once sync.Once
	sandbox.setOnAnswer(func(method, path string, status int) {
		if method == "POST" && path == "/api/v1/alerts" {
			once.Do(func() { close(created) })
		}
	})
	sandbox.setOnRequest(func(method, path string) {
		if method == "DELETE" {
			select {
			case <-created:
			case <-time.After(2 * time.Minute): // a hang guard, not a verdict: the apply goes on either way
			}
		}
	})
	defer sandbox.setOnRequest(nil)
	defer sandbox.setOnAnswer(nil)
	d.write(t, alertConfig("new", name, ""))
	out := d.mustRun(t, "apply", "-auto-approve")
	if !strings.Contains(out, "1 added, 0 changed, 1 destroyed") {
		t.Errorf("the rename should add one and destroy one:\n%s", out)
	}
	now := d.managed(t)["cloudcost_budget_alert.new"]
	if now == old || !exists(t, now) || exists(t, old) {
		t.Errorf("the new address must hold a new, live alert: old %s, new %s, service holds %v", old, now, live(t, name))
	}
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
}

// `tofu workspace new staging` in a directory whose default workspace is applied: staging's plan is refused
// for a group whose name the default workspace already uses (never given that group), staging's apply makes its
// own objects once the name differs, and staging's destroy leaves the default workspace's objects alone.
func TestAccSecondWorkspaceNeverTakesTheFirstOnesObjects(t *testing.T) {
	acceptance(t)
	const name = "tfds-workspace"
	group := func(name string) string {
		return fmt.Sprintf("\nresource \"cloudcost_cloud_group\" \"g\" {\n  name = %s\n}\n", name)
	}
	d := newTofuDir(t, alertConfig("a", name, "")+group(`"tfds-workspace-group"`))
	d.mustRun(t, "apply", "-auto-approve")
	first := d.managed(t)

	d.mustRun(t, "workspace", "new", "staging")
	out, code := d.run(t, "apply", "-auto-approve")
	flat := strings.Join(strings.Fields(out), " ")
	if code == 0 || !strings.Contains(flat, `A Cloud Group named "tfds-workspace-group" already exists (`+first["cloudcost_cloud_group.g"]+`)`) ||
		!strings.Contains(flat, "cloudcost-unmanaged") {
		t.Errorf("staging's group must be refused with the name's owner and the way to adopt a leftover (exit %d):\n%s", code, out)
	}
	if staging := d.managed(t); staging["cloudcost_cloud_group.g"] != "" {
		t.Fatalf("staging must not hold the default workspace's group: %v", staging)
	}
	ownedOnce(t, map[string]map[string]string{"default": first})

	d.write(t, alertConfig("a", name, "")+group(`terraform.workspace == "default" ? "tfds-workspace-group" : "tfds-workspace-group-${terraform.workspace}"`))
	d.mustRun(t, "apply", "-auto-approve")
	staging := d.managed(t)
	if len(staging) != 2 {
		t.Fatalf("staging should hold its own alert and group: %v", staging)
	}
	ownedOnce(t, map[string]map[string]string{"default": first, "staging": staging})

	d.mustRun(t, "destroy", "-auto-approve")
	ownedOnce(t, map[string]map[string]string{"default": first})
	d.mustRun(t, "workspace", "select", "default")
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
}

// Two identical alerts, one of which waits for a group whose first apply fails: the first apply makes one
// alert, the second (group fixed) the other — two objects. And an identical third added in a later apply gets
// a third.
func TestAccIdenticalTwinsAcrossAppliesGetTheirOwnObjects(t *testing.T) {
	acceptance(t)
	const name = "tfds-twins"
	group := func(accounts string) string {
		return fmt.Sprintf("resource \"cloudcost_cloud_group\" \"g\" {\n  name            = \"tfds-twins-group\"\n  aws_account_ids = [%s]\n}\n", accounts)
	}
	twins := alertConfig("a", name, "") + alertConfig("b", name, "  depends_on = [cloudcost_cloud_group.g]\n")
	// 999999999999 is no connected account: the group's create is refused (422) — at apply, since the value is
	// unknown until a's create (a value known at plan would be refused by the plan's dry-run, before any create).
	d := newTofuDir(t, twins+group(`cloudcost_budget_alert.a.id == "" ? "111122223333" : "999999999999"`))
	if out, code := d.run(t, "apply", "-auto-approve"); code == 0 {
		t.Fatalf("the group with an unknown account should fail:\n%s", out)
	}
	if got := d.managed(t); got["cloudcost_budget_alert.a"] == "" || got["cloudcost_budget_alert.b"] != "" {
		t.Fatalf("the first apply should have made a only: %v", got)
	}
	d.write(t, twins+group(`"111122223333"`))
	d.mustRun(t, "apply", "-auto-approve")
	ownedOnce(t, map[string]map[string]string{"": d.managed(t)})

	d.write(t, twins+group(`"111122223333"`)+alertConfig("c", name, ""))
	d.mustRun(t, "apply", "-auto-approve")
	state := d.managed(t)
	ownedOnce(t, map[string]map[string]string{"": state})
	if got := live(t, name); len(got) != 3 {
		t.Errorf("three twins, three alerts: the service holds %v, the state %v", got, state)
	}
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
	if got := live(t, name); len(got) != 0 {
		t.Errorf("destroy left %v", got)
	}
}

// The rest of the class, each an ordinary workflow: count that shrinks and grows, for_each, a module
// instantiated twice, a copied directory, `state rm` then apply, -target, and a second configuration replacing
// the first in one directory.
func TestAccOrdinaryWorkflowsNeverShareAnObject(t *testing.T) {
	acceptance(t)
	counted := func(n int) string {
		return fmt.Sprintf(`
resource "cloudcost_budget_alert" "n" {
  count      = %d
  name       = "tfds-count"
  amount     = 100
  thresholds = [{ percent = 80, basis = "actual" }]
}
`, n)
	}

	t.Run("count shrinks and grows", func(t *testing.T) {
		d := newTofuDir(t, counted(3))
		d.mustRun(t, "apply", "-auto-approve")
		d.write(t, counted(2))
		d.mustRun(t, "apply", "-auto-approve")
		d.write(t, counted(3))
		d.mustRun(t, "apply", "-auto-approve")
		ownedOnce(t, map[string]map[string]string{"": d.managed(t)})
		if got := live(t, "tfds-count"); len(got) != 3 {
			t.Errorf("count = 3: the service holds %v", got)
		}
		d.mustRun(t, "destroy", "-auto-approve")
	})

	t.Run("for_each and a module twice", func(t *testing.T) {
		d := newTofuDir(t, `
resource "cloudcost_budget_alert" "each" {
  for_each   = toset(["x", "y"])
  name       = "tfds-each"
  amount     = 100
  thresholds = [{ percent = 80, basis = "actual" }]
}
module "one" { source = "./budget" }
module "two" { source = "./budget" }
`)
		if err := os.MkdirAll(filepath.Join(d.dir, "budget"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.dir, "budget", "main.tf"), []byte(header+alertConfig("m", "tfds-each", "")), 0o600); err != nil {
			t.Fatal(err)
		}
		d.mustRun(t, "get") // installs the modules (init would look the overridden provider up in a registry)
		d.mustRun(t, "apply", "-auto-approve")
		state := d.managed(t)
		ownedOnce(t, map[string]map[string]string{"": state})
		if len(state) != 4 || len(live(t, "tfds-each")) != 4 {
			t.Errorf("four instances, four alerts: state %v, service %v", state, live(t, "tfds-each"))
		}
		d.mustRun(t, "destroy", "-auto-approve")
	})

	t.Run("a copied directory", func(t *testing.T) {
		d := newTofuDir(t, alertConfig("a", "tfds-copied", ""))
		d.mustRun(t, "apply", "-auto-approve")
		copied := newTofuDir(t, alertConfig("a", "tfds-copied", ""))
		copied.mustRun(t, "apply", "-auto-approve")
		copied.mustRun(t, "apply", "-auto-approve", "-replace=cloudcost_budget_alert.a")
		ownedOnce(t, map[string]map[string]string{"original": d.managed(t), "copy": copied.managed(t)})
		copied.mustRun(t, "destroy", "-auto-approve")
		ownedOnce(t, map[string]map[string]string{"original": d.managed(t)})
		d.planIsEmpty(t)
		d.mustRun(t, "destroy", "-auto-approve")
	})

	t.Run("state rm, then apply", func(t *testing.T) {
		d := newTofuDir(t, alertConfig("a", "tfds-forgotten", ""))
		d.mustRun(t, "apply", "-auto-approve")
		forgotten := d.managed(t)["cloudcost_budget_alert.a"]
		d.mustRun(t, "state", "rm", "cloudcost_budget_alert.a")
		d.mustRun(t, "apply", "-auto-approve")
		ownedOnce(t, map[string]map[string]string{"": d.managed(t)})
		d.mustRun(t, "destroy", "-auto-approve")
		if !exists(t, forgotten) {
			t.Errorf("the object the state forgot (%s) was deleted by a destroy that did not manage it", forgotten)
		}
		sandbox.api(t, "DELETE", "/alerts/"+forgotten, nil, nil)
	})

	t.Run("-target, then the rest", func(t *testing.T) {
		d := newTofuDir(t, alertConfig("a", "tfds-target", "")+alertConfig("b", "tfds-target", ""))
		d.mustRun(t, "apply", "-auto-approve", "-target=cloudcost_budget_alert.a")
		d.mustRun(t, "apply", "-auto-approve")
		ownedOnce(t, map[string]map[string]string{"": d.managed(t)})
		if got := live(t, "tfds-target"); len(got) != 2 {
			t.Errorf("two alerts: %v", got)
		}
		d.mustRun(t, "destroy", "-auto-approve")
	})

	t.Run("another configuration in the same directory", func(t *testing.T) {
		d := newTofuDir(t, alertConfig("first", "tfds-sameplace", ""))
		d.mustRun(t, "apply", "-auto-approve")
		d.write(t, alertConfig("second", "tfds-sameplace", "")+alertConfig("third", "tfds-sameplace", ""))
		d.mustRun(t, "apply", "-auto-approve")
		ownedOnce(t, map[string]map[string]string{"": d.managed(t)})
		if got := live(t, "tfds-sameplace"); len(got) != 2 {
			t.Errorf("the first configuration's alert is destroyed, the second's two exist: %v", got)
		}
		d.mustRun(t, "destroy", "-auto-approve")
	})
}

// applyKilledAtCreate runs `tofu apply` and SIGKILLs it (with its provider) the moment the service answers the
// first create on path: after the service made the object, before the state could record it.
func (d *tofuDir) applyKilledAtCreate(t *testing.T, path string) {
	t.Helper()
	cmd := d.command("apply", "-auto-approve")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var once sync.Once
	killed := make(chan struct{})
	sandbox.setOnAnswer(func(method, p string, status int) {
		if method == "POST" && p == path && status == 201 {
			once.Do(func() {
				close(killed) // first: Wait may return as soon as the signal lands
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			})
		}
	})
	defer sandbox.setOnAnswer(nil)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	select {
	case <-killed:
	default:
		t.Fatalf("the create was never answered; tofu ended with %v\n%s", err, out.String())
	}
}

// An apply killed after the service made an alert and before the state recorded it: the next apply makes a
// second alert (a duplicate, never an object some other address holds); `cloudcost-unmanaged` lists the
// leftover with the import block that adopts it; a destroy never deletes it.
func TestAccInterruptedAlertCreateLeavesALeftoverThatIsListed(t *testing.T) {
	acceptance(t)
	const name = "tfds-interrupted-alert"
	d := newTofuDir(t, alertConfig("a", name, ""))
	d.applyKilledAtCreate(t, "/api/v1/alerts")
	leftover := live(t, name)
	if len(leftover) != 1 || len(d.managed(t)) != 0 {
		t.Fatalf("the killed apply should have made one alert and recorded none: %v, %v", leftover, d.managed(t))
	}
	d.mustRun(t, "apply", "-auto-approve")
	state := d.managed(t)
	if state["cloudcost_budget_alert.a"] == leftover[0] || len(live(t, name)) != 2 {
		t.Fatalf("the retry makes its own alert: leftover %v, state %v, service %v", leftover, state, live(t, name))
	}
	listed := d.unmanaged(t)
	if !strings.Contains(listed, "cloudcost_budget_alert  "+leftover[0]+`  "`+name+`"`) || !strings.Contains(listed, `id = "`+leftover[0]+`"`) ||
		strings.Contains(listed, state["cloudcost_budget_alert.a"]) {
		t.Errorf("cloudcost-unmanaged should list the leftover %s with its name and import block, and not the state's alert:\n%s", leftover[0], listed)
	}
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
	if !exists(t, leftover[0]) {
		t.Errorf("destroy deleted the leftover %s, which no state managed", leftover[0])
	}
	sandbox.api(t, "DELETE", "/alerts/"+leftover[0], nil, nil)
}

// A group's name is unique, so the retry of an interrupted group create is refused (409) with the way out; the
// import block `cloudcost-unmanaged` prints adopts the leftover, and the configuration then plans nothing.
func TestAccInterruptedGroupCreateIsAdoptedByItsImportBlock(t *testing.T) {
	acceptance(t)
	const config = `
resource "cloudcost_cloud_group" "g" {
  name            = "tfds-interrupted-group"
  aws_account_ids = ["111122223333"]
}
`
	d := newTofuDir(t, config)
	d.applyKilledAtCreate(t, "/api/v1/groups")
	made := sandbox.groupsNamed(t, "tfds-interrupted-group")
	if len(made) != 1 {
		t.Fatalf("the interrupted create should have made one group, found %v", made)
	}
	out, code := d.run(t, "apply", "-auto-approve")
	flat := strings.Join(strings.Fields(out), " ")
	if code == 0 || !strings.Contains(flat, "already exists ("+made[0]+")") || !strings.Contains(flat, "cloudcost-unmanaged") {
		t.Errorf("the retry must be refused, naming the group and the way to adopt it (exit %d):\n%s", code, out)
	}
	listed := d.unmanaged(t)
	start := strings.Index(listed, "import {")
	if start < 0 || !strings.Contains(listed, made[0]) {
		t.Fatalf("cloudcost-unmanaged should print the leftover's import block:\n%s", listed)
	}
	block := strings.Replace(listed[start:], "REPLACE_ME", "g", 1)
	d.write(t, config+block)
	d.mustRun(t, "apply", "-auto-approve")
	if ids := d.managed(t); ids["cloudcost_cloud_group.g"] != made[0] {
		t.Fatalf("the import should adopt %s: %v", made[0], ids)
	}
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
	if left := sandbox.groupsNamed(t, "tfds-interrupted-group"); len(left) != 0 {
		t.Errorf("destroy left %v", left)
	}
}

// Within one apply, a create whose answer is lost on the way back (the service made the object) is sent again
// with the same key and given that object: one alert, in the state.
func TestAccCreateRetriedAfterALostAnswerMakesOneObject(t *testing.T) {
	acceptance(t)
	const name = "tfds-lost-answer"
	d := newTofuDir(t, alertConfig("a", name, ""))
	var once sync.Once
	sandbox.setAnswerLost(func(method, path string, status int) bool {
		lost := false
		if method == "POST" && path == "/api/v1/alerts" && status == 201 {
			once.Do(func() { lost = true })
		}
		return lost
	})
	defer sandbox.setAnswerLost(nil)
	sandbox.resetCounts()
	d.mustRun(t, "apply", "-auto-approve")
	counts := sandbox.snapshot()
	state := d.managed(t)
	if got := live(t, name); len(got) != 1 || got[0] != state["cloudcost_budget_alert.a"] || counts["POST /alerts"] != 2 {
		t.Errorf("two attempts of one create, one alert in the state: service %v, state %v, requests %v", got, state, counts)
	}
	d.planIsEmpty(t)
	d.mustRun(t, "destroy", "-auto-approve")
}

// A group's address renamed without a `moved` block: the new address's create is refused at plan (the name is
// the old address's group's), and the warning's way out never adopts a group some address holds: it sends the
// user to cloudcost-unmanaged, which compares with the state and lists nothing here, and names the `moved` block.
func TestAccRenamedGroupIsNeverAdvisedIntoASecondAddress(t *testing.T) {
	acceptance(t)
	group := func(address string) string {
		return fmt.Sprintf("resource \"cloudcost_cloud_group\" %q {\n  name = \"tfds-renamed-group\"\n}\n", address)
	}
	d := newTofuDir(t, group("g1"))
	d.mustRun(t, "apply", "-auto-approve")
	held := d.managed(t)["cloudcost_cloud_group.g1"]
	d.write(t, group("g2"))
	out, code := d.run(t, "apply", "-auto-approve")
	flat := strings.Join(strings.Fields(out), " ")
	if code == 0 || !strings.Contains(flat, "already exists ("+held+")") || !strings.Contains(flat, "cloudcost-unmanaged") ||
		!strings.Contains(flat, "`moved` block") {
		t.Errorf("the rename must stop at plan, naming the group and both ways out (exit %d):\n%s", code, out)
	}
	if listed := d.unmanaged(t); strings.Contains(listed, held) {
		t.Errorf("cloudcost-unmanaged must not list a group the state holds (%s):\n%s", held, listed)
	}
	if !exists(t, held) || d.managed(t)["cloudcost_cloud_group.g1"] != held {
		t.Errorf("the refused rename must leave g1 and its group as they were")
	}
	d.write(t, group("g2")+"moved {\n  from = cloudcost_cloud_group.g1\n  to   = cloudcost_cloud_group.g2\n}\n")
	d.mustRun(t, "apply", "-auto-approve")
	if got := d.managed(t)["cloudcost_cloud_group.g2"]; got != held {
		t.Errorf("with the moved block g2 holds the same group: %s, want %s", got, held)
	}
	d.mustRun(t, "destroy", "-auto-approve")
}

// A webhook URL the provider refuses at plan is never quoted: not in the diagnostic, not in a TRACE log (a
// typo such as http for https would otherwise put the URL's token into CI logs).
func TestAccRefusedWebhookURLIsNeverPrinted(t *testing.T) {
	acceptance(t)
	const secret = "http://hooks.example.com/TOKEN-tfds-refused-url"
	d := newTofuDir(t, `
variable "hook" {
  type      = string
  ephemeral = true
}
`+alertConfig("a", "tfds-refused-url", "  webhook_url_wo = var.hook\n"))
	logPath := filepath.Join(t.TempDir(), "trace.log")
	d.env = append(d.env, "TF_VAR_hook="+secret, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath)
	out, code := d.run(t, "plan")
	if code == 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "must be an https URL") {
		t.Fatalf("an http webhook URL to a host that is not this machine must be refused (exit %d):\n%s", code, out)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for where, text := range map[string]string{"the plan's output": out, "the TRACE log": string(log)} {
		if strings.Contains(text, "TOKEN-tfds-refused-url") {
			t.Errorf("%s quotes the refused webhook URL", where)
		}
	}
}
