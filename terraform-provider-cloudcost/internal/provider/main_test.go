package provider_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/provider"
)

// The acceptance harness (TF_ACC=1): TestMain starts a real sandbox (`cloudcost-sandbox serve` on
// 127.0.0.1, a fresh data folder), puts a counting proxy in front of it (every request the sandbox receives
// passes it, so tests count requests and can act on an answer), creates an API token, and points the
// provider at the proxy through CLOUDCOST_API_URL and CLOUDCOST_API_TOKEN. OpenTofu is the binary
// (TF_ACC_TERRAFORM_PATH, default .cache/opentofu/<version>/bin/tofu, built by `node scripts/opentofu.js`).
// Tests on terraform-plugin-testing run the provider in this process; tests that must kill or drive `tofu`
// themselves (tofu_test.go) run the provider binary TestMain builds, installed through dev_overrides.

var (
	repoRoot = filepath.Join("..", "..", "..")
	sandbox  *sandboxProcess
	// providerBin is the folder holding terraform-provider-cloudcost built from this module.
	providerBin string
)

func providerFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"cloudcost": providerserver.NewProtocol6WithError(provider.New("test")()),
	}
}

// header is what every configuration of the tests starts with: the provider's source address.
const header = `
terraform {
  required_providers {
    cloudcost = { source = "cloudcost/cloudcost" }
  }
}
`

func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") == "" {
		os.Exit(m.Run())
	}
	code, err := runAcceptance(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acceptance harness:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runAcceptance(m *testing.M) (int, error) {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		return 0, err
	}
	repoRoot = root
	tmp, err := os.MkdirTemp("", "cloudcost-tfacc-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)

	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		matches, _ := filepath.Glob(filepath.Join(repoRoot, ".cache", "opentofu", "*", "bin", "tofu"))
		if len(matches) == 0 {
			return 0, fmt.Errorf("no tofu: run `node scripts/opentofu.js`, or set TF_ACC_TERRAFORM_PATH")
		}
		os.Setenv("TF_ACC_TERRAFORM_PATH", matches[len(matches)-1])
	}
	// The in-process provider is reattached under the address the configurations require.
	setDefault("TF_ACC_PROVIDER_NAMESPACE", "cloudcost")
	setDefault("TF_ACC_PROVIDER_HOST", "registry.opentofu.org")
	// An empty CLI configuration: no registry, and no warning about a missing file on stdout (tofu prints
	// one there, which breaks the JSON the test framework reads).
	empty := filepath.Join(tmp, "empty.tofurc")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		return 0, err
	}
	os.Setenv("TF_CLI_CONFIG_FILE", empty)
	os.Setenv("CHECKPOINT_DISABLE", "1")

	providerBin = filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(providerBin, "terraform-provider-cloudcost"), ".")
	build.Dir = filepath.Join(repoRoot, "terraform-provider-cloudcost")
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building the provider: %v\n%s", err, out)
	}
	build = exec.Command("go", "build", "-o", filepath.Join(providerBin, "cloudcost-unmanaged"), "./cmd/cloudcost-unmanaged")
	build.Dir = filepath.Join(repoRoot, "terraform-provider-cloudcost")
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building cloudcost-unmanaged: %v\n%s", err, out)
	}

	sandbox, err = startSandbox(filepath.Join(tmp, "sandbox"))
	if err != nil {
		return 0, err
	}
	defer sandbox.stop()
	os.Setenv("CLOUDCOST_API_URL", sandbox.proxyURL)
	os.Setenv("CLOUDCOST_API_TOKEN", sandbox.token)
	return m.Run(), nil
}

// acceptance skips a test unless TF_ACC is set (the harness runs only then).
func acceptance(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" || sandbox == nil {
		t.Skip("acceptance test: set TF_ACC=1 (npm run test:terraform)")
	}
}

func setDefault(name, value string) {
	if os.Getenv(name) == "" {
		os.Setenv(name, value)
	}
}

// sandboxProcess is a running `cloudcost-sandbox serve` and the counting proxy in front of it.
type sandboxProcess struct {
	cmd      *exec.Cmd
	dataDir  string
	apiURL   string
	proxyURL string
	token    string
	proxy    *httptest.Server

	mu     sync.Mutex
	counts map[string]int
	// onAnswer, when set, sees every answer before the caller does (the interrupted-apply test kills tofu there).
	onAnswer func(method, path string, status int)
	// onRequest, when set, sees every request before the sandbox does, and may hold it (to order two requests).
	onRequest func(method, path string)
	// answerLost, when set and true for an answer, drops it: the caller gets a 502 though the sandbox acted.
	answerLost func(method, path string, status int) bool
}

var readyLine = regexp.MustCompile(`listening on (http://\S+/api/v1)`)

// startSandbox starts `serve` with the rate limit off, or with the serve flags given (rate_limit_test.go).
func startSandbox(dataDir string, serveFlags ...string) (*sandboxProcess, error) {
	cli := filepath.Join(repoRoot, "sandbox", "dist", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		return nil, fmt.Errorf("no sandbox build at %s: run `npm run build` first", cli)
	}
	s := &sandboxProcess{dataDir: dataDir, counts: map[string]int{}}
	// Rate limit off: the tests count requests, and a 429 would add one.
	if len(serveFlags) == 0 {
		serveFlags = []string{"--rate-limit", "0"}
	}
	s.cmd = exec.Command("node", append([]string{cli, "serve", "--port", "0", "--host", "127.0.0.1", "--data", dataDir}, serveFlags...)...)
	s.cmd.Stderr = os.Stderr
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the sandbox (node on the PATH?): %w", err)
	}
	found := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if m := readyLine.FindStringSubmatch(scanner.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case s.apiURL = <-found:
	case <-time.After(120 * time.Second): // a hang guard for a loaded machine, not a verdict
		s.stop()
		return nil, fmt.Errorf("the sandbox did not print its URL within 120 s")
	}
	out, err := exec.Command("node", cli, "token", "create", "--org", "demo", "--scopes", "read,write", "--json", "--data", dataDir).Output()
	if err != nil {
		s.stop()
		return nil, fmt.Errorf("creating a token: %w", err)
	}
	var tok struct{ Token string }
	if err := json.Unmarshal(out, &tok); err != nil || tok.Token == "" {
		s.stop()
		return nil, fmt.Errorf("creating a token: %q", out)
	}
	s.token = tok.Token
	if err := s.holdDay(); err != nil {
		s.stop()
		return nil, err
	}
	target, _ := url.Parse(s.apiURL)
	rp := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			s.mu.Lock()
			hold := s.onRequest
			s.mu.Unlock()
			if hold != nil {
				hold(r.In.Method, r.In.URL.Path)
			}
			r.SetURL(&url.URL{Scheme: target.Scheme, Host: target.Host})
		},
		ModifyResponse: func(res *http.Response) error {
			s.mu.Lock()
			s.counts[res.Request.Method+" "+templatePath(res.Request.URL.Path)]++ // /oauth/token stays as it is
			hook, lose := s.onAnswer, s.answerLost
			s.mu.Unlock()
			if hook != nil {
				hook(res.Request.Method, res.Request.URL.Path, res.StatusCode)
			}
			if lose != nil && lose(res.Request.Method, res.Request.URL.Path, res.StatusCode) {
				return errAnswerLost
			}
			return nil
		},
	}
	s.proxy = httptest.NewServer(rp)
	s.proxyURL = s.proxy.URL + "/api/v1"
	return s, nil
}

// holdDay stops the demo organization's clock a second ahead (the sandbox controls' POST /sandbox/v1/clock). Spend
// is month-to-date, billed up to the day before the clock's date: an import verified against the applied state, or a
// refresh-only plan expected to show no change, would otherwise differ in current_spend whenever UTC midnight passes
// between two readings (issue 39).
func (s *sandboxProcess) holdDay() error {
	res, err := s.send(http.MethodPost, strings.TrimSuffix(s.apiURL, "/api/v1")+"/sandbox/v1/clock", map[string]string{"advance": "PT1S"})
	if err != nil {
		return fmt.Errorf("holding the sandbox's clock: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("holding the sandbox's clock: %s", res.Status)
	}
	return nil
}

var idSegment = regexp.MustCompile(`/(grp|alr|rpt)_[0-9a-z]+`)

// templatePath turns `/api/v1/groups/grp_…` into `/groups/{id}` for counting.
func templatePath(p string) string {
	return idSegment.ReplaceAllString(strings.TrimPrefix(p, "/api/v1"), "/{id}")
}

func (s *sandboxProcess) stop() {
	if s.proxy != nil {
		s.proxy.Close()
	}
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = s.cmd.Process.Kill()
		}
	}
}

// resetCounts starts counting afresh; counts returns a copy.
func (s *sandboxProcess) resetCounts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = map[string]int{}
}

func (s *sandboxProcess) snapshot() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.counts {
		out[k] = v
	}
	return out
}

// errAnswerLost is what the proxy answers (502) in place of an answer a test drops.
var errAnswerLost = errors.New("the test dropped this answer")

func (s *sandboxProcess) setOnRequest(f func(method, path string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onRequest = f
}

func (s *sandboxProcess) setAnswerLost(f func(method, path string, status int) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answerLost = f
}

func (s *sandboxProcess) setOnAnswer(f func(method, path string, status int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onAnswer = f
}

// send makes a request of the test's own with the demo token straight to the sandbox (not through the proxy, which
// counts the provider's requests only).
func (s *sandboxProcess) send(method, url string, body any) (*http.Response, error) {
	reader := strings.NewReader("")
	if body != nil {
		data, _ := json.Marshal(body)
		reader = strings.NewReader(string(data))
	}
	req, err := http.NewRequestWithContext(context.Background(), method, url, reader)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return http.DefaultClient.Do(req)
}

// api calls the sandbox's API directly (send): these requests are the test's, not the provider's.
func (s *sandboxProcess) api(t *testing.T, method, path string, body any, out any) int {
	t.Helper()
	res, err := s.send(method, s.apiURL+path, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: decoding: %v", method, path, err)
		}
	}
	return res.StatusCode
}

// oauthClient makes an OAuth client of the demo organization (`cloudcost-sandbox client create`): what a user of
// client credentials would hold.
func (s *sandboxProcess) oauthClient(t *testing.T) (cli struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}) {
	t.Helper()
	out, err := exec.Command("node", filepath.Join(repoRoot, "sandbox", "dist", "cli.js"), "client", "create", "--org", "demo",
		"--scopes", "read,write", "--json", "--data", s.dataDir).Output()
	if err != nil {
		t.Fatalf("client create: %v", err)
	}
	if err := json.Unmarshal(out, &cli); err != nil {
		t.Fatal(err)
	}
	return cli
}

// groupsNamed lists the organization's groups with this name (the duplicate count of the interrupted apply).
func (s *sandboxProcess) groupsNamed(t *testing.T, name string) []string {
	t.Helper()
	var page struct {
		Items []struct{ ID, Name string }
	}
	s.api(t, "GET", "/groups?limit=200", nil, &page)
	var ids []string
	for _, g := range page.Items {
		if g.Name == name {
			ids = append(ids, g.ID)
		}
	}
	return ids
}
