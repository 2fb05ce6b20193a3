package provider_test

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the provider logs (issue 38): at TF_LOG=DEBUG every request it makes is a line through tflog with its
// method, path, status, request id, attempt and retry (and replay, page), one per request the service
// answered; and a TF_LOG=TRACE log of a whole real tofu run (apply and destroy, with an API token, then with
// OAuth client credentials) holds none of the secrets the run handled: the API token, the client secret,
// the webhook URLs (plain and write-only) and the webhook signing secret. A plan at TF_LOG=DEBUG logs its
// requests the same way.
func TestAccLogsShowEveryRequestAndNoSecret(t *testing.T) {
	acceptance(t)
	const plainURL = "https://hooks.example.com/plain-7f3a9c-never-logged"
	const writeOnlyURL = "https://hooks.example.com/write-only-2b8e1d-never-logged"
	var signing struct{ Secret string }
	if status := sandbox.api(t, "GET", "/webhooks/signing-secret", nil, &signing); status != 200 || signing.Secret == "" {
		t.Fatalf("reading the signing secret: %d", status)
	}
	cli := sandbox.oauthClient(t)
	d := newTofuDir(t, `
ephemeral "cloudcost_webhook_signing_secret" "e" {}

resource "cloudcost_budget_alert" "logged" {
  name        = "tfacc-logs"
  amount      = 100
  thresholds  = [{ percent = 80, basis = "actual" }]
  webhook_url = "`+plainURL+`"
}

resource "cloudcost_scheduled_report" "logged" {
  name                   = "tfacc-logs"
  report                 = "services"
  schedule               = { frequency = "daily", time = "06:00", timezone = "UTC" }
  recipients             = ["finops@example.com"]
  webhook_url_wo         = "`+writeOnlyURL+`"
  webhook_url_wo_version = 1
}
`)
	secrets := map[string]string{"API token": sandbox.token, "client secret": cli.ClientSecret, "webhook URL": plainURL,
		"write-only webhook URL": writeOnlyURL, "signing secret": signing.Secret}
	run := func(name string, env []string, args ...string) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "tofu.log")
		saved := d.env
		d.env = append(append(d.env, "TF_LOG=TRACE", "TF_LOG_PATH="+path), env...)
		defer func() { d.env = saved }()
		d.mustRun(t, args...)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		log := string(data)
		for what, secret := range secrets {
			if strings.Contains(log, secret) {
				t.Errorf("%s: the TRACE log holds the %s", name, what)
			}
		}
		return log
	}

	everyRequestLogged := func(name, log string) {
		t.Helper()
		counts := sandbox.snapshot()
		logged := map[string]int{}
		for _, fields := range requestLines(log) {
			for _, field := range []string{"method", "path", "status", "request_id", "attempt", "retry", "replay"} {
				if fields[field] == "" {
					t.Errorf("%s: a request line without its %s: %v", name, field, fields)
				}
			}
			logged[fields["method"]+" "+templatePath(fields["path"])]++
		}
		if len(counts) == 0 || !maps.Equal(logged, counts) {
			t.Errorf("%s: every request the service answered should be one DEBUG line: answered %v, logged %v", name, counts, logged)
		}
	}
	sandbox.resetCounts()
	everyRequestLogged("apply at TRACE", run("apply with an API token", nil, "apply", "-auto-approve"))
	// At DEBUG the provider's loggers take the host's level (log_level.go): its own DEBUG lines stay.
	sandbox.resetCounts()
	everyRequestLogged("plan at DEBUG", run("plan at DEBUG", []string{"TF_LOG=DEBUG"}, "plan", "-refresh-only"))
	creds := []string{"CLOUDCOST_API_TOKEN=", "CLOUDCOST_CLIENT_ID=" + cli.ClientID, "CLOUDCOST_CLIENT_SECRET=" + cli.ClientSecret}
	run("destroy with client credentials", creds, "destroy", "-auto-approve")
}

// requestLines are the fields of the provider's `cloudcost API request` lines in a tofu log (hclog's
// key=value pairs, in no fixed order).
func requestLines(log string) []map[string]string {
	var out []map[string]string
	for _, line := range strings.Split(log, "\n") {
		_, rest, ok := strings.Cut(line, "[DEBUG] provider.terraform-provider-cloudcost: cloudcost API request: ")
		if !ok {
			continue
		}
		fields := map[string]string{}
		for _, pair := range strings.Fields(rest) {
			if k, v, ok := strings.Cut(pair, "="); ok {
				fields[k] = v
			}
		}
		out = append(out, fields)
	}
	return out
}
