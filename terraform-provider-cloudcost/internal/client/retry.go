package client

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RetryOptions says how hard the client tries before it gives up; the defaults are the TypeScript client's
// (api/src/client/retry-policy.ts), so both doors behave alike under faults.
type RetryOptions struct {
	// MaxAttempts per call including the first; default 8.
	MaxAttempts int
	// BaseDelay of the first back-off for 5xx and connection errors, doubled per attempt with full jitter.
	BaseDelay time.Duration
	// MaxDelay is the longest single back-off.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After waited out; a longer one fails the call at once. The default
	// is the service's whole rate-limit window (one minute, sandbox README "Limits"), the longest Retry-After
	// it sends: every 429 of the service is waited out (issue 38: 30 s failed 400 of 1,000 creates).
	MaxRetryAfter time.Duration
}

// DefaultRetry: with 15% of requests failing, 8 attempts lose about 1 call in 4 million (0.15^8).
var DefaultRetry = RetryOptions{MaxAttempts: 8, BaseDelay: 100 * time.Millisecond, MaxDelay: 5 * time.Second, MaxRetryAfter: 60 * time.Second}

// retryableStatus: 429 is safe for every method (the server did not act); 5xx only for idempotent requests —
// GET, PUT, DELETE, the contract's PATCH (absolute values) and a POST carrying an Idempotency-Key.
func retryableStatus(status int, idempotent bool) bool {
	return status == http.StatusTooManyRequests ||
		(idempotent && (status == 500 || status == 502 || status == 503 || status == 504))
}

// transientNetworkError: connection-level failures worth another attempt (the request may or may not have
// reached the server, so only idempotent requests are repeated).
func transientNetworkError(err error) bool {
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ETIMEDOUT) || strings.Contains(err.Error(), "EOF") ||
		strings.Contains(err.Error(), "connection reset")
}

// parseRetryAfter reads RFC 9110 §10.2.3 delay-seconds or an HTTP-date.
func parseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(value)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(0, at.Sub(now)), true
	}
	return 0, false
}

// backoff is exponential with full jitter for the (1-based) attempt that just failed.
func backoff(attempt int, o RetryOptions) time.Duration {
	ceiling := min(o.MaxDelay, o.BaseDelay<<(attempt-1))
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(ceiling) + 1))
}
