package provider_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"
)

// `tofu apply` of import blocks for many groups made outside: the imports' Reads cost the first Read's GET
// and one listing page, not one GET each (read_listing.go). Then a change made outside between two plans is
// seen by the second: each plan's provider process lists afresh.
func TestAccImportOfManyReadsInPages(t *testing.T) {
	acceptance(t)
	const n = 12
	var config strings.Builder
	for i := range n {
		var made struct{ ID string }
		name := fmt.Sprintf("tfacc-import-many-%d", i)
		if status := sandbox.api(t, "POST", "/groups", map[string]string{"name": name, "description": "made outside"}, &made); status != 201 {
			t.Fatalf("creating %s outside: %d", name, status)
		}
		fmt.Fprintf(&config, "import {\n  to = cloudcost_cloud_group.g%d\n  id = %q\n}\n", i, made.ID)
		fmt.Fprintf(&config, "resource \"cloudcost_cloud_group\" \"g%d\" {\n  name = %q\n  description = \"made outside\"\n}\n", i, name)
	}
	d := newTofuDir(t, config.String())
	inPages := map[string]int{"GET /groups/{id}": 1, "GET /groups": 1}
	sandbox.resetCounts()
	out := d.mustRun(t, "apply", "-auto-approve")
	if imported := sandbox.snapshot(); !maps.Equal(imported, inPages) || !strings.Contains(out, fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", n)) {
		t.Errorf("importing %d groups should cost %v, cost %v\n%s", n, inPages, imported, out)
	}

	sandbox.resetCounts()
	if out, code := d.run(t, "plan", "-detailed-exitcode"); code != 0 {
		t.Fatalf("the plan after the import should be empty, exit %d\n%s", code, out)
	}
	if planned := sandbox.snapshot(); !maps.Equal(planned, inPages) {
		t.Errorf("a plan of %d groups should cost %v, cost %v", n, inPages, planned)
	}
	id := d.stateIDs(t)["cloudcost_cloud_group.g7"]
	if status := sandbox.api(t, "PATCH", "/groups/"+id, map[string]string{"description": "changed between plans"}, nil); status != 200 {
		t.Fatalf("changing %s outside: %d", id, status)
	}
	if out, code := d.run(t, "plan", "-detailed-exitcode"); code != 2 || !strings.Contains(out, `"changed between plans" -> "made outside"`) {
		t.Errorf("the next plan should show the change made outside (exit 2), got %d\n%s", code, out)
	}
	d.mustRun(t, "destroy", "-auto-approve")
	if left := sandbox.groupsNamed(t, "tfacc-import-many-0"); len(left) != 0 {
		t.Errorf("destroy left %v", left)
	}
}
