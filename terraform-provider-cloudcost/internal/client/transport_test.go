package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Transport behaviour a sandbox cannot be made to show on demand: these tests stand up a plain HTTP server
// that answers as a failing service would, and hold the client to the TypeScript client's rules.

var fast = &RetryOptions{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, MaxRetryAfter: 2 * time.Second}

func newTestClient(t *testing.T, h http.HandlerFunc, o Options) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	o.BaseURL = srv.URL + BasePath
	if o.APIToken == "" && o.ClientID == "" {
		o.APIToken = "ccpat_test"
	}
	if o.Retry == nil {
		o.Retry = fast
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRetriesA429AfterRetryAfterForAnyMethod(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		w.WriteHeader(201)
		fmt.Fprint(w, `{"id":"grp_0123456789","name":"a","description":"","members":[],"source":"api","createdAt":"x","updatedAt":"x"}`)
	}, Options{})
	started := time.Now()
	// A POST without a key: never repeated after a 5xx, but a 429 means the service did not act.
	if _, err := c.CreateGroup(context.Background(), CreateGroup{Name: "a"}, nil); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 {
		t.Fatalf("want 2 attempts, got %d", calls.Load())
	}
	if waited := time.Since(started); waited < time.Second {
		t.Fatalf("Retry-After: 1 was not waited out (%s)", waited)
	}
}

func TestDoesNotRepeatAPostWithoutAKeyAfterA5xx(t *testing.T) {
	var calls atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(503)
	}, Options{})
	_, err := c.CreateGroup(context.Background(), CreateGroup{Name: "a"}, nil)
	var api *APIError
	if !errors.As(err, &api) || api.Status != 503 || calls.Load() != 1 {
		t.Fatalf("want one attempt answered 503, got %d attempts, %v", calls.Load(), err)
	}
	calls.Store(0)
	_, err = c.CreateGroup(context.Background(), CreateGroup{Name: "a"}, &CreateOptions{IdempotencyKey: "tf.k"})
	if !errors.As(err, &api) || calls.Load() != int32(fast.MaxAttempts) {
		t.Fatalf("a keyed POST is repeated up to %d times, got %d: %v", fast.MaxAttempts, calls.Load(), err)
	}
}

func TestKeepsTheProblemAndReportsAReplay(t *testing.T) {
	var key string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		key = r.Header.Get("Idempotency-Key")
		if r.URL.Path == BasePath+"/alerts" {
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(201)
			fmt.Fprint(w, `{"id":"alr_0123456789"}`)
			return
		}
		w.Header().Set("Content-Type", "application/problem+json")
		w.Header().Set("X-Request-Id", "req_1")
		w.WriteHeader(422)
		fmt.Fprint(w, `{"type":"https://cloudcost.dev/problems/validation","title":"Invalid request","status":422,"requestId":"req_1",`+
			`"errors":[{"path":"body.name","message":"must not be blank","code":"too_small"}]}`)
	}, Options{})
	var replayed bool
	if _, err := c.CreateAlert(context.Background(), AlertInput{}, &CreateOptions{IdempotencyKey: "tf.abc", Replayed: &replayed}); err != nil {
		t.Fatal(err)
	}
	if !replayed || key != "tf.abc" {
		t.Fatalf("want the key sent and the replay reported, got key %q replayed %v", key, replayed)
	}
	_, err := c.ReplaceAlert(context.Background(), "alr_0123456789", AlertInput{})
	var api *APIError
	if !errors.As(err, &api) {
		t.Fatalf("want an APIError, got %v", err)
	}
	if api.Type != "https://cloudcost.dev/problems/validation" || api.RequestID != "req_1" || len(api.Errors) != 1 || api.Errors[0].Path != "body.name" {
		t.Fatalf("problem not kept: %+v", api)
	}
	if !strings.Contains(api.Error(), "body.name: must not be blank") || !strings.Contains(api.Error(), "req_1") {
		t.Fatalf("message: %s", api.Error())
	}
}

func TestClientCredentialsFetchOneTokenAndRenewItAfterA401(t *testing.T) {
	var tokens, apiCalls atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			if err := r.ParseForm(); err != nil || r.Form.Get("client_secret") != "s3cret" {
				w.WriteHeader(401)
				fmt.Fprint(w, `{"error":"invalid_client"}`)
				return
			}
			n := tokens.Add(1)
			fmt.Fprintf(w, `{"access_token":"tok%d","token_type":"Bearer","expires_in":3600,"scope":"read"}`, n)
			return
		}
		apiCalls.Add(1)
		// The first token is taken as revoked.
		if r.Header.Get("Authorization") == "Bearer tok1" {
			w.WriteHeader(401)
			return
		}
		fmt.Fprint(w, `{"id":"org_1","name":"demo"}`)
	}, Options{ClientID: "cli", ClientSecret: "s3cret"})
	for range 3 {
		if _, err := c.GetOrganization(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if tokens.Load() != 2 || apiCalls.Load() != 4 {
		t.Fatalf("want 2 token requests and 4 API calls, got %d and %d", tokens.Load(), apiCalls.Load())
	}

	bad := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		fmt.Fprint(w, `{"error":"invalid_client","error_description":"unknown client"}`)
	}, Options{ClientID: "cli", ClientSecret: "wrong-secret"})
	_, err := bad.GetOrganization(context.Background())
	var api *APIError
	if !errors.As(err, &api) || api.OAuthError != "invalid_client" || strings.Contains(err.Error(), "wrong-secret") {
		t.Fatalf("want invalid_client without the secret, got %v", err)
	}
}

func TestNormaliseAPIURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://cc.example.com":         "https://cc.example.com/api/v1",
		"https://cc.example.com/api/v1/": "https://cc.example.com/api/v1",
		"http://127.0.0.1:8787/x/api/v1": "http://127.0.0.1:8787/x/api/v1",
	} {
		if got, err := NormaliseAPIURL(in, "api_url"); err != nil || got != want {
			t.Errorf("%s: want %s, got %s %v", in, want, got, err)
		}
	}
	for in, says := range map[string]string{
		"cc.example.com":                "must be an absolute URL",
		"ftp://cc.example.com":          "http or https",
		"https://u:pw@cc.example.com":   "must not contain a user name or password",
		"https://cc.example.com/portal": "points at the portal",
		"https://cc.example.com/v2":     "ending in /api/v1",
		"https://cc.example.com/?a=1":   "query or fragment",
	} {
		_, err := NormaliseAPIURL(in, "api_url")
		if err == nil || !strings.Contains(err.Error(), says) || !strings.HasPrefix(err.Error(), "api_url ") || strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: want an error naming api_url that says %q, got %v", in, says, err)
		}
	}
}
