// Package client is the provider's client of the Cloud Cost API: a thin hand-written transport with the
// TypeScript client's behaviour (API token or OAuth client credentials, bounded retries honouring
// Retry-After, paging, Idempotency-Key on creates with the replay reported, RFC 9457 problems kept as
// *APIError), and request and response types that contract_test.go holds to api/openapi.json field by field.
package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Options configure a Client. BaseURL is `{base_url}`, ending in /api/v1 (see NormaliseAPIURL).
type Options struct {
	BaseURL string
	// APIToken wins over client credentials when both are set.
	APIToken     string
	ClientID     string
	ClientSecret string
	// AuthURL is the origin serving /oauth/token; default: the origin of BaseURL.
	AuthURL string
	// Timeout bounds each attempt; default 30 s.
	Timeout   time.Duration
	Retry     *RetryOptions
	UserAgent string
	// OnRequest observes every HTTP attempt, token requests included (tests count requests with it).
	OnRequest func(RequestEvent)
	// HTTPClient replaces the default one (tests).
	HTTPClient *http.Client
	// BaseURLSetting names where BaseURL came from, e.g. "api_url (from CLOUDCOST_API_URL)": a failure that is
	// the URL's fault says so (api_location.go).
	BaseURLSetting string
}

// Client calls the API. One Client is safe for concurrent use by any number of goroutines.
type Client struct {
	base      *url.URL
	http      *http.Client
	timeout   time.Duration
	retry     RetryOptions
	userAgent string
	onRequest func(RequestEvent)
	tokens    tokenSource
	// baseSetting is Options.BaseURLSetting.
	baseSetting string
	// tokensFromBase: tokens come from the base URL's origin (no AuthURL), so a token request that reaches no
	// server is the base URL's fault too.
	tokensFromBase bool
	// pacer: one per client, i.e. per credentials, as the service's budget is per identity.
	pacer *ratePacer
}

// New returns a client; it sends no request. It refuses options it cannot work with, naming them.
func New(o Options) (*Client, error) {
	base, err := url.Parse(strings.TrimRight(o.BaseURL, "/"))
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("the API URL must be an absolute URL ending in %s", BasePath)
	}
	c := &Client{base: base, http: o.HTTPClient, timeout: o.Timeout, retry: DefaultRetry, userAgent: o.UserAgent, onRequest: o.OnRequest,
		baseSetting: o.BaseURLSetting, pacer: newRatePacer()}
	if c.http == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// OpenTofu calls the provider at -parallelism 10 by default: keep that many connections for reuse
		// (Go's default keeps 2 per host, so 8 of every 10 requests would open a new connection).
		t.MaxIdleConnsPerHost = 32
		c.http = &http.Client{Transport: t}
	}
	if c.timeout <= 0 {
		c.timeout = 30 * time.Second
	}
	if o.Retry != nil {
		c.retry = *o.Retry
	}
	if c.userAgent == "" {
		c.userAgent = "terraform-provider-cloudcost"
	}
	switch {
	case o.APIToken != "":
		c.tokens = staticToken(o.APIToken)
	case o.ClientID != "" && o.ClientSecret != "":
		authURL := o.AuthURL
		if authURL == "" {
			authURL = base.Scheme + "://" + base.Host
			c.tokensFromBase = true
		}
		tokenURL, err := url.JoinPath(authURL, "/oauth/token")
		if err != nil {
			return nil, fmt.Errorf("the auth URL must be an absolute URL: %w", err)
		}
		c.tokens = &clientCredentials{c: c, tokenURL: tokenURL, clientID: o.ClientID, clientSecret: o.ClientSecret}
	default:
		return nil, fmt.Errorf("no credentials: an API token, or a client id and client secret, are needed")
	}
	return c, nil
}

// CreateOptions make a create recognisable. Without a key the client draws none and the create is sent once
// (a POST without a key is never repeated after a 5xx); the provider always passes the key it derived.
type CreateOptions struct {
	IdempotencyKey string
	// Replayed is set when the answer is the saved first response of an earlier request with the key
	// (`Idempotent-Replayed: true`).
	Replayed *bool
}

// call sends one operation of the table and decodes its success body into out (nil for 204).
func (c *Client) call(ctx context.Context, id string, params []string, query url.Values, body any, out any, create *CreateOptions) error {
	op, ok := operations[id]
	if !ok {
		panic("client: operation " + id + " is not in the table")
	}
	relative, err := fillPath(op.path, params)
	if err != nil {
		return err
	}
	operation := op.method + " " + relative
	target := c.base.String() + relative
	req := request{method: op.method, header: http.Header{}, operation: operation, page: pageOf(ctx), paced: true}
	if len(query) > 0 {
		req.query = query.Encode()
		target += "?" + req.query
	}
	req.url = target
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s: encoding the request body: %w", operation, err)
		}
		req.body = data
		req.contentType = "application/json"
	}
	if op.idempotent && create != nil && create.IdempotencyKey != "" {
		// Kept across every retry of this call, so a repeated create returns the first result.
		req.header.Set("Idempotency-Key", create.IdempotencyKey)
	}
	// Safe to repeat (RFC 9110 §9.2.2): everything but a POST, and a POST that carries an Idempotency-Key.
	req.idempotent = op.method != http.MethodPost || req.header.Get("Idempotency-Key") != ""

	tok, err := c.tokens.token(ctx)
	if err != nil && c.tokensFromBase {
		return c.located(err, nil)
	} else if err != nil {
		return err
	}
	req.header.Set("Authorization", "Bearer "+tok)
	res, attempts, err := c.send(ctx, req)
	// One refresh on 401: the token expired or was revoked since it was cached (RFC 6750 §3.1).
	if err == nil && res.status == http.StatusUnauthorized && c.tokens.invalidate(tok) {
		if tok, err = c.tokens.token(ctx); err != nil {
			return err
		}
		req.header.Set("Authorization", "Bearer "+tok)
		res, attempts, err = c.send(ctx, req)
	}
	if err != nil {
		return c.located(err, nil)
	}
	if res.status != op.status {
		return c.located(errorFromResponse(res, operation, attempts), res)
	}
	if create != nil && create.Replayed != nil {
		*create.Replayed = res.header.Get("Idempotent-Replayed") == "true"
	}
	if out == nil || op.status == http.StatusNoContent {
		return nil
	}
	if err := json.Unmarshal(res.body, out); err != nil {
		return c.located(&APIError{Status: res.status, Title: "response did not match the contract", RequestID: res.header.Get("X-Request-Id"),
			Operation: operation, Attempts: attempts, Cause: err}, res)
	}
	return nil
}

func errorFromResponse(res *response, operation string, attempts int) *APIError {
	requestID := res.header.Get("X-Request-Id")
	var p Problem
	if json.Unmarshal(res.body, &p) == nil && p.Title != "" {
		if p.RequestID == "" {
			p.RequestID = requestID
		}
		return &APIError{Status: res.status, Type: p.Type, Title: p.Title, Detail: p.Detail, Instance: p.Instance, Errors: p.Errors,
			RequestID: p.RequestID, Operation: operation, Attempts: attempts}
	}
	return &APIError{Status: res.status, Title: fmt.Sprintf("HTTP %d", res.status), RequestID: requestID, Operation: operation, Attempts: attempts}
}

func fillPath(path string, params []string) (string, error) {
	out := path
	for _, p := range params {
		start := strings.IndexByte(out, '{')
		end := strings.IndexByte(out, '}')
		if start < 0 || end < start {
			return "", fmt.Errorf("client: too many parameters for %s", path)
		}
		out = out[:start] + url.PathEscape(p) + out[end+1:]
	}
	if strings.ContainsAny(out, "{}") {
		return "", fmt.Errorf("client: missing parameters for %s", path)
	}
	return out, nil
}

// page is one page of a list operation.
type page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
}

// listAll reads every item of a paged list operation, following nextCursor to the last page, 200 a page.
func listAll[T any](ctx context.Context, c *Client, id string, query url.Values) ([]T, error) {
	var all []T
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("limit", "200")
	for n := 1; ; n++ {
		var p page[T]
		if err := c.call(withPage(ctx, n), id, nil, q, nil, &p, nil); err != nil {
			return nil, err
		}
		all = append(all, p.Items...)
		if p.NextCursor == nil || *p.NextCursor == "" {
			return all, nil
		}
		q.Set("cursor", *p.NextCursor)
	}
}
