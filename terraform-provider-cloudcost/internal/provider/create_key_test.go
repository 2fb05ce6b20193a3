package provider

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Unit tests of the create key: a key names one create of one process, never two, and the prefix names the
// configuration (directory and workspace) so that its leftovers can be listed.

func TestCreateKeysAreNeverSentByTwoProcesses(t *testing.T) {
	first, _ := NewCreateKeys("team-a")
	next, _ := NewCreateKeys("team-a") // the next `tofu apply`: a new provider process, same configuration
	other, _ := NewCreateKeys("team-b")
	k1, k2, k3 := first.Next(), next.Next(), other.Next()
	if k1 == k2 {
		t.Errorf("two processes must never send one key (it would give their creates one object): %s", k1)
	}
	if !strings.HasPrefix(k1, first.Prefix()) || !strings.HasPrefix(k2, first.Prefix()) || first.Prefix() != next.Prefix() {
		t.Errorf("one configuration's keys share its prefix (what cloudcost-unmanaged lists by): %s, %s", k1, k2)
	}
	if strings.HasPrefix(k3, first.Prefix()) {
		t.Errorf("another configuration must get another prefix: %s, %s", k1, k3)
	}
	if len(k1) > 255 || strings.ContainsAny(k1, " \t\n") {
		t.Errorf("not a valid Idempotency-Key: %q", k1)
	}
}

func TestCreateKeysOfOneProcessDiffer(t *testing.T) {
	keys, _ := NewCreateKeys("s")
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := keys.Next()
			mu.Lock()
			seen[k] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(seen) != 64 {
		t.Fatalf("64 creates in one apply must get 64 keys, got %d", len(seen))
	}
}

func TestCreateKeyScopeDefaultsToTheDirectoryAndWorkspace(t *testing.T) {
	t.Setenv("TF_WORKSPACE", "")
	t.Setenv("TF_DATA_DIR", "")
	dir := t.TempDir()
	t.Chdir(dir)
	here, _ := NewCreateKeys("")
	t.Chdir(t.TempDir())
	there, _ := NewCreateKeys("")
	if here.Prefix() == there.Prefix() {
		t.Errorf("two root modules in two directories must not share a prefix")
	}

	t.Chdir(dir)
	// `tofu workspace new staging` writes the selection to .terraform/environment.
	if err := os.MkdirAll(filepath.Join(dir, ".terraform"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".terraform", "environment"), []byte("staging"), 0o600); err != nil {
		t.Fatal(err)
	}
	staging, _ := NewCreateKeys("")
	if staging.Prefix() == here.Prefix() {
		t.Errorf("two workspaces of one directory must not share a prefix (one's leftovers would list the other's objects)")
	}
	t.Setenv("TF_WORKSPACE", "staging")
	fromEnv, _ := NewCreateKeys("")
	if fromEnv.Prefix() != staging.Prefix() {
		t.Errorf("TF_WORKSPACE selects the workspace as the environment file does")
	}
	t.Setenv("TF_WORKSPACE", "default")
	if def, _ := NewCreateKeys(""); def.Prefix() != here.Prefix() {
		t.Errorf("no selection is the default workspace")
	}

	// A declared scope keeps the workspace apart too.
	scopedDefault, _ := NewCreateKeys("payments")
	t.Setenv("TF_WORKSPACE", "staging")
	if scopedStaging, _ := NewCreateKeys("payments"); scopedStaging.Prefix() == scopedDefault.Prefix() {
		t.Errorf("two workspaces under one create_key_scope must not share a prefix")
	}
}
