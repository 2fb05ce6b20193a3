package client

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// What TF_LOG shows of the client: one DEBUG line per attempt with method, path, status, request id, attempt
// and retry, and an INFO line saying how long a 429's Retry-After is waited out. The provider's logs test
// (internal/provider/logs_test.go) checks the same through the real tofu, and that no secret is logged.
func TestLogsEveryAttemptAndTheRetryAfterWait(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", fmt.Sprintf("req_%d", calls.Add(1)))
		if calls.Load() == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		fmt.Fprint(w, `{"id":"grp_0123456789","name":"a","description":"","members":[],"source":"api","createdAt":"x","updatedAt":"x"}`)
	}, Options{})
	var out bytes.Buffer
	if _, err := c.GetGroup(tflogtest.RootLogger(context.Background(), &out), "grp_0123456789"); err != nil {
		t.Fatal(err)
	}
	entries, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	var requests []string
	waited := false
	for _, e := range entries {
		switch msg := e["@message"].(string); {
		case msg == "cloudcost API request":
			requests = append(requests, fmt.Sprintf("%v %v %v %v attempt=%v retry=%v", e["method"], e["path"], e["status"], e["request_id"], e["attempt"], e["retry"]))
		case strings.Contains(msg, "waiting 1s before attempt 2, as Retry-After asks") && e["@level"] == "info":
			waited = true
		}
	}
	want := []string{"GET /groups/grp_0123456789 429 req_1 attempt=1 retry=false", "GET /groups/grp_0123456789 200 req_2 attempt=2 retry=true"}
	if strings.Join(requests, "\n") != strings.Join(want, "\n") {
		t.Errorf("logged requests:\n%s\nwant:\n%s", strings.Join(requests, "\n"), strings.Join(want, "\n"))
	}
	if !waited {
		t.Errorf("no INFO line saying the Retry-After is waited out: %v", entries)
	}
}
