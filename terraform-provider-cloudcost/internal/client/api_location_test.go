package client

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
)

// Issue 37 §4: a URL that points at no API says which setting points where and what answered there.
func TestAURLThatIsNotTheAPISaysWhereItPoints(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + BasePath
	l.Close()
	c, err := New(Options{BaseURL: closed, APIToken: "ccpat_test", Retry: fast, BaseURLSetting: "CLOUDCOST_API_URL"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAccounts(context.Background())
	if err == nil || !strings.Contains(err.Error(), "CLOUDCOST_API_URL is "+closed+": no server answered there (connection refused)") {
		t.Errorf("a closed port: %v", err)
	}

	html := newTestClient(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><p>It works")
	}, Options{BaseURLSetting: "the provider's api_url"})
	_, err = html.ListAccounts(context.Background())
	if err == nil || !strings.Contains(err.Error(), "the provider's api_url is http://127.0.0.1:") ||
		!strings.Contains(err.Error(), ": what answered there is not the cloudcost API (a 200 text/html response") {
		t.Errorf("an HTML page: %v", err)
	}

	problem := newTestClient(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"type":"https://cloudcost.dev/problems/forbidden","title":"Forbidden","status":403,"requestId":"req_1"}`)
	}, Options{BaseURLSetting: "the provider's api_url"})
	if _, err = problem.ListAccounts(context.Background()); err == nil || strings.Contains(err.Error(), "api_url") {
		t.Errorf("the API's own refusal is not the URL's fault: %v", err)
	}
}
