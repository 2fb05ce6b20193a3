package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

type request struct {
	method      string
	url         string
	contentType string
	body        []byte
	header      http.Header
	// idempotent: may this request be repeated after a 5xx or a connection error?
	idempotent bool
	// operation is `METHOD path` for errors and observers.
	operation string
	// query is the query string (logged: it carries a listing's page cursor, never a credential).
	query string
	// page is the 1-based page of a listing, 0 for any other request.
	page int
	// paced: an API call, paced by the rate limit's headers (the token endpoint is not).
	paced bool
}

type response struct {
	status int
	header http.Header
	body   []byte
}

// RequestEvent is one HTTP attempt as seen by Options.OnRequest (tests and benchmarks count these).
type RequestEvent struct {
	Operation string
	Method    string
	// Status is 0 when the attempt failed without a response.
	Status  int
	Attempt int
}

func asAPIError(err error, target **APIError) bool { return errors.As(err, target) }

// send makes one call with bounded retries: 429 for any method (waiting out Retry-After, RFC 6585 §4), 5xx
// and connection errors only when the request is idempotent. A paced request first waits for the rate
// limit's budget (rate_pacer.go). It returns the final response whatever its status, or an *APIError of
// status 0 when no response arrived. Every attempt is logged (request_log.go).
func (c *Client) send(ctx context.Context, req request) (*response, int, error) {
	for attempt := 1; ; attempt++ {
		res, err := c.pacedAttempt(ctx, req)
		if err != nil {
			logAttempt(ctx, req, nil, attempt, err)
			c.observe(RequestEvent{Operation: req.operation, Method: req.method, Status: 0, Attempt: attempt})
			if ctx.Err() == nil && req.idempotent && transientNetworkError(err) && attempt < c.retry.MaxAttempts {
				if err := sleep(ctx, backoff(attempt, c.retry)); err != nil {
					return nil, attempt, networkError(req, err, attempt)
				}
				continue
			}
			return nil, attempt, networkError(req, err, attempt)
		}
		logAttempt(ctx, req, res, attempt, nil)
		c.observe(RequestEvent{Operation: req.operation, Method: req.method, Status: res.status, Attempt: attempt})
		if !retryableStatus(res.status, req.idempotent) || attempt >= c.retry.MaxAttempts {
			return res, attempt, nil
		}
		delay, ok := c.retryDelay(ctx, req, res, attempt)
		if !ok {
			return res, attempt, nil
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, attempt, networkError(req, err, attempt)
		}
	}
}

// retryDelay is how long to wait before the next attempt; false to stop and hand back res. A Retry-After
// longer than MaxRetryAfter (the service's own window, at most) fails the call at once.
func (c *Client) retryDelay(ctx context.Context, req request, res *response, attempt int) (time.Duration, bool) {
	after, ok := parseRetryAfter(res.header.Get("Retry-After"), time.Now())
	if !ok {
		return backoff(attempt, c.retry), true
	}
	if after > c.retry.MaxRetryAfter {
		tflog.Warn(ctx, "cloudcost API: Retry-After is longer than the client waits; giving up", map[string]any{
			"operation": req.operation, "status": res.status, "retry_after_seconds": after.Seconds(), "max_seconds": c.retry.MaxRetryAfter.Seconds()})
		return 0, false
	}
	tflog.Info(ctx, fmt.Sprintf("cloudcost API: %d answered; waiting %s before attempt %d, as Retry-After asks", res.status, after, attempt+1),
		map[string]any{"operation": req.operation, "status": res.status, "retry_after_seconds": after.Seconds()})
	// A rate-limit refusal the pacer has read: it holds the next attempt until the window it named begins
	// (to the millisecond, where whole-second Retry-After would oversleep), so no extra wait here.
	if req.paced && res.status == http.StatusTooManyRequests && res.header.Get("RateLimit-Reset") != "" {
		return 0, true
	}
	return after, true
}

// pacedAttempt is one attempt, after the pacer's go-ahead when the request is paced.
func (c *Client) pacedAttempt(ctx context.Context, req request) (*response, error) {
	if !req.paced {
		return c.attempt(ctx, req)
	}
	if err := c.pacer.acquire(ctx, req.operation); err != nil {
		return nil, err
	}
	res, err := c.attempt(ctx, req)
	if err != nil {
		c.pacer.release(0, nil, time.Now())
		return nil, err
	}
	c.pacer.release(res.status, res.header, time.Now())
	return res, nil
}

func (c *Client) attempt(ctx context.Context, req request) (*response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	httpReq, err := http.NewRequestWithContext(ctx, req.method, req.url, body)
	if err != nil {
		return nil, err
	}
	for name, values := range req.header {
		httpReq.Header[name] = values
	}
	httpReq.Header.Set("Accept", "application/json")
	httpReq.Header.Set("User-Agent", c.userAgent)
	if req.contentType != "" {
		httpReq.Header.Set("Content-Type", req.contentType)
	}
	res, err := c.http.Do(httpReq)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &response{status: res.StatusCode, header: res.Header, body: data}, nil
}

func (c *Client) observe(e RequestEvent) {
	if c.onRequest != nil {
		c.onRequest(e)
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func networkError(req request, err error, attempts int) *APIError {
	title := "connection failed"
	if errors.Is(err, context.DeadlineExceeded) {
		title = "request timed out"
	}
	// Go's transport errors name the method and URL (never credentials: the API URL may carry none).
	return &APIError{Status: 0, Title: title, Detail: err.Error(), Operation: req.operation, Attempts: attempts, Cause: err}
}
