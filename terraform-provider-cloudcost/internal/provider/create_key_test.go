package provider

import (
	"strings"
	"sync"
	"testing"
)

// Unit tests of the create key: what it is derived from, and that two identical creates never share a key.

func TestCreateKeysAreStableAcrossProcessesAndScopedByConfiguration(t *testing.T) {
	body := map[string]any{"name": "platform", "members": []string{"111122223333"}}
	first, _ := NewCreateKeys("team-a")
	retry, _ := NewCreateKeys("team-a") // the next `tofu apply`: a new provider process
	other, _ := NewCreateKeys("team-b")
	k1, _ := first.Next("cloudcost_cloud_group", body)
	k2, _ := retry.Next("cloudcost_cloud_group", body)
	k3, _ := other.Next("cloudcost_cloud_group", body)
	if k1 != k2 {
		t.Errorf("the retry of a create must send its key again: %s vs %s", k1, k2)
	}
	if k1 == k3 || !strings.HasPrefix(k1, first.Prefix()) || strings.HasPrefix(k3, first.Prefix()) {
		t.Errorf("another configuration must get other keys, under another prefix: %s, %s", k1, k3)
	}
	if len(k1) > 255 || strings.ContainsAny(k1, " \t\n") {
		t.Errorf("not a valid Idempotency-Key: %q", k1)
	}
	changed, _ := retry.Next("cloudcost_cloud_group", map[string]any{"name": "platform", "members": []string{}})
	if changed == k1 {
		t.Errorf("a create with other values is another create")
	}
}

func TestCreateKeysOfIdenticalCreatesDiffer(t *testing.T) {
	body := map[string]any{"name": "same"}
	keys, _ := NewCreateKeys("s")
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, _ := keys.Next("cloudcost_budget_alert", body)
			mu.Lock()
			seen[k] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(seen) != 8 {
		t.Fatalf("8 identical creates in one apply must get 8 keys, got %d", len(seen))
	}
	// The retry's process hands out the same 8 keys (in whatever order): the set is what is stable.
	again, _ := NewCreateKeys("s")
	for range 8 {
		k, _ := again.Next("cloudcost_budget_alert", body)
		if !seen[k] {
			t.Fatalf("the retry derived a key the first apply never used: %s", k)
		}
	}
}

func TestCreateKeyScopeDefaultsToTheWorkingDirectory(t *testing.T) {
	here, _ := NewCreateKeys("")
	t.Chdir(t.TempDir())
	there, _ := NewCreateKeys("")
	if here.Prefix() == there.Prefix() {
		t.Errorf("two root modules in two directories must not share keys")
	}
}
