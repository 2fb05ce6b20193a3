package provider_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// The Go client past the service's rate limit (issue 38): its defaults against the limits a real sandbox
// sends, its pacing by the RateLimit-* headers, and 1,000 budget alerts through the real tofu with the
// service's default limit on.

// The longest Retry-After and RateLimit-Reset the service sends with its default one-minute window (here after
// a budget of 2 is spent at once, so the wait is about the whole window) are ones the client waits out. The
// TypeScript client is held to the same answer by test/client/rate-limit-defaults.test.ts.
func TestAccClientDefaultsCoverTheServiceLimits(t *testing.T) {
	acceptance(t)
	s, err := startSandbox(filepath.Join(t.TempDir(), "sandbox"), "--rate-limit", "2")
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop()
	var refused *http.Response
	for range 3 {
		req, _ := http.NewRequest("GET", s.apiURL+"/organization", nil)
		req.Header.Set("Authorization", "Bearer "+s.token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		refused = res
	}
	if refused.StatusCode != 429 {
		t.Fatalf("the third request against a limit of 2 should be refused, got %d", refused.StatusCode)
	}
	for _, name := range []string{"Retry-After", "RateLimit-Reset"} {
		seconds, err := strconv.Atoi(refused.Header.Get(name))
		if err != nil || seconds <= 0 {
			t.Fatalf("%s: %q", name, refused.Header.Get(name))
		}
		if wait := time.Duration(seconds) * time.Second; wait > client.DefaultRetry.MaxRetryAfter {
			t.Errorf("the service asks for %s of %s; the client gives up past %s", name, wait, client.DefaultRetry.MaxRetryAfter)
		}
	}
}

// Against a real sandbox whose limit is 20 requests per 1 s window, 100 calls at parallelism 8 all succeed
// and the service refuses none: the client waits for the next window instead of being refused (the
// TypeScript client's test/client/rate-pacing.test.ts, same numbers). A window of one second is not a CLI
// option: the sandbox is started through its package's API.
func TestAccClientPacesByRateLimitHeaders(t *testing.T) {
	acceptance(t)
	dataDir := t.TempDir()
	script := `require("@cloudcost/sandbox").startSandboxServer({ dataDir: process.argv[1], port: 0, host: "127.0.0.1", rateLimitPerMinute: 20, rateLimitWindowMs: 1000 }).then((s) => console.log(s.url))`
	cmd := exec.Command("node", "-e", script, dataDir)
	cmd.Dir = filepath.Join(repoRoot, "sandbox")
	cmd.Stderr = os.Stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	var apiURL string
	for lines.Scan() {
		if line := strings.TrimSpace(lines.Text()); strings.HasPrefix(line, "http") {
			apiURL = line
			break
		}
	}
	if apiURL == "" {
		t.Fatal("the sandbox printed no URL")
	}
	out, err := exec.Command("node", filepath.Join(repoRoot, "sandbox", "dist", "cli.js"), "token", "create", "--org", "demo",
		"--scopes", "read", "--json", "--data", dataDir).Output()
	if err != nil {
		t.Fatal(err)
	}
	token := string(out)[strings.Index(string(out), `"token":"`)+9:]
	token = token[:strings.IndexByte(token, '"')]

	var mu sync.Mutex
	statuses := map[int]int{}
	c, err := client.New(client.Options{BaseURL: apiURL, APIToken: token, OnRequest: func(e client.RequestEvent) {
		mu.Lock()
		statuses[e.Status]++
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &logged)
	var next atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for range 8 {
		wg.Go(func() {
			for next.Add(1) <= 100 {
				if _, err := c.GetOrganization(ctx); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if statuses[200] != 100 || len(statuses) != 1 {
		t.Errorf("100 calls should be 100 answers of 200 and nothing else, were %v", statuses)
	}
	if !strings.Contains(logged.String(), `"@message":"cloudcost API: the rate limit's budget is spent; waiting for the next window"`) {
		t.Errorf("the waits for the next window should be logged at INFO with how long:\n%.2000s", logged.String())
	}
}

// 1,000 budget alerts applied, planned (-refresh-only and normal, at -parallelism 10 and 1), changed out of
// band between two plans, and destroyed through the real tofu against a sandbox with the service's default
// rate limit on (600 requests a minute per caller): no error, and the reads in pages (read_listing.go)
// counted through the proxy. It takes minutes by design (1,000 creates and 1,000 deletes at 600 a minute):
// run it with TF_ACC_AT_SIZE=1.
func TestAccThousandAlertsPastTheRateLimit(t *testing.T) {
	acceptance(t)
	if os.Getenv("TF_ACC_AT_SIZE") == "" {
		t.Skip("1,000 resources at the default rate limit take minutes: set TF_ACC_AT_SIZE=1")
	}
	const n = 1000
	s, err := startSandbox(filepath.Join(t.TempDir(), "sandbox"), "--rate-limit", "600")
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop()
	var refused atomic.Int32
	s.setOnAnswer(func(_, _ string, status int) {
		if status == 429 {
			refused.Add(1)
		}
	})
	d := newTofuDir(t, fmt.Sprintf(`
resource "cloudcost_budget_alert" "a" {
  count      = %d
  name       = "tfacc-size-${count.index}"
  amount     = 100
  thresholds = [{ percent = 80, basis = "actual" }]
}
`, n))
	d.env = append(d.env, "CLOUDCOST_API_URL="+s.proxyURL, "CLOUDCOST_API_TOKEN="+s.token)
	step := func(name string, args ...string) (map[string]int, string, int) {
		t.Helper()
		s.resetCounts()
		refused.Store(0)
		started := time.Now()
		out, code := d.run(t, args...)
		counts := s.snapshot()
		t.Logf("%s: exit %d in %s, requests %v (429: %d)", name, code, time.Since(started).Round(time.Second), counts, refused.Load())
		return counts, out, code
	}
	total := func(counts map[string]int) int {
		sum := 0
		for _, v := range counts {
			sum += v
		}
		return sum
	}

	if counts, out, code := step("apply", "apply", "-auto-approve"); code != 0 || counts["POST /alerts"] < n {
		t.Fatalf("apply of %d alerts: exit %d, %v\n%s", n, code, counts, tail(out))
	}
	for _, p := range []string{"-parallelism=10", "-parallelism=1"} {
		// No change to show; the exit code may be 2 all the same: Terraform 1.11 counts a reordering of the state's
		// sensitive_attributes as a refresh-only change (OpenTofu's code is checked by the normal plan below).
		if counts, out, code := step("plan -refresh-only "+p, "plan", "-refresh-only", "-detailed-exitcode", p); code == 1 ||
			!strings.Contains(out, "No changes.") || total(counts) > 20 {
			t.Errorf("plan -refresh-only %s: want no change and at most 20 requests, got exit %d and %d: %v\n%s", p, code, total(counts), counts, tail(out))
		}
		if counts, out, code := step("plan "+p, "plan", "-detailed-exitcode", p); code != 0 || total(counts) > 20 {
			t.Errorf("plan %s: want exit 0 and at most 20 requests, got exit %d and %d: %v\n%s", p, code, total(counts), counts, tail(out))
		}
	}

	// Out of band, between two plans: one alert changed, one deleted. The next plan sees both.
	ids := d.stateIDs(t)
	changed, deleted := ids["cloudcost_budget_alert.a[500]"], ids["cloudcost_budget_alert.a[999]"]
	if status := s.api(t, "PUT", "/alerts/"+changed, map[string]any{"name": "tfacc-size-500", "amount": 250, "currency": "USD", "period": "monthly",
		"thresholds": []map[string]any{{"percent": 80, "basis": "actual"}}}, nil); status != 200 {
		t.Fatalf("changing %s outside: %d", changed, status)
	}
	if status := s.api(t, "DELETE", "/alerts/"+deleted, nil, nil); status != 204 {
		t.Fatalf("deleting %s outside: %d", deleted, status)
	}
	counts, out, code := step("plan after the change outside", "plan", "-detailed-exitcode")
	if code != 2 || !strings.Contains(out, "1 to add, 1 to change, 0 to destroy") || !strings.Contains(out, "250 -> 100") || total(counts) > 20 {
		t.Errorf("the plan should show the change and the deletion made outside with at most 20 requests: exit %d, %v\n%s", code, counts, tail(out))
	}

	counts, out, code = step("destroy", "destroy", "-auto-approve")
	if code != 0 || total(counts) > (n-1)+20 {
		t.Errorf("destroy of %d: want exit 0 and at most %d requests, got exit %d and %d: %v\n%s", n-1, n-1+20, code, total(counts), counts, tail(out))
	}
	var page struct{ Items []struct{ ID string } }
	s.api(t, "GET", "/alerts?limit=10", nil, &page)
	if len(page.Items) != 0 {
		t.Errorf("destroy left alerts: %v", page.Items)
	}
}

// tail is the end of tofu's output, where its errors are.
func tail(out string) string {
	if len(out) > 4000 {
		return "…" + out[len(out)-4000:]
	}
	return out
}
