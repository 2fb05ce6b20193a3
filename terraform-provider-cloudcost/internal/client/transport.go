package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"time"
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
// and connection errors only when the request is idempotent. It returns the final response whatever its
// status, or an *APIError of status 0 when no response arrived.
func (c *Client) send(ctx context.Context, req request) (*response, int, error) {
	for attempt := 1; ; attempt++ {
		res, err := c.attempt(ctx, req)
		if err != nil {
			c.observe(RequestEvent{Operation: req.operation, Method: req.method, Status: 0, Attempt: attempt})
			if ctx.Err() == nil && req.idempotent && transientNetworkError(err) && attempt < c.retry.MaxAttempts {
				if err := sleep(ctx, backoff(attempt, c.retry)); err != nil {
					return nil, attempt, networkError(req, err, attempt)
				}
				continue
			}
			return nil, attempt, networkError(req, err, attempt)
		}
		c.observe(RequestEvent{Operation: req.operation, Method: req.method, Status: res.status, Attempt: attempt})
		if !retryableStatus(res.status, req.idempotent) || attempt >= c.retry.MaxAttempts {
			return res, attempt, nil
		}
		delay := backoff(attempt, c.retry)
		if after, ok := parseRetryAfter(res.header.Get("Retry-After"), time.Now()); ok {
			if after > c.retry.MaxRetryAfter {
				return res, attempt, nil
			}
			delay = after
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, attempt, networkError(req, err, attempt)
		}
	}
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
