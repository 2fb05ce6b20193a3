package client

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// ratePacer paces one identity's requests by the server's rate-limit headers (IETF draft "RateLimit header
// fields for HTTP": RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset in delta-seconds; RFC 6585 §4 and
// RFC 9110 §10.2.3 for 429 + Retry-After), so a burst waits for the next window instead of being refused.
// It is the TypeScript client's RatePacer (api/src/client/rate-pacer.ts), rule for rule: the budget is per
// identity on the server (sandbox README "Rate limit"), so there is one pacer per Client, i.e. per
// credentials; a server that sends no such headers is never paced.
//
// The budget of the current window: the lowest Remaining heard, less the requests still in flight (they may
// not be counted in it yet), less those sent since. Reset is rounded up to whole seconds, so each answer
// received at t gives an upper bound t + Reset of the window's end; the smallest of them is when the next
// window surely has begun.
type ratePacer struct {
	mu        sync.Mutex
	limit     int  // 0 until a response said
	hasBudget bool // false: nothing heard yet, never paced
	budget    int
	windowEnd time.Time // zero until a response said
	inFlight  int
	changed   chan struct{} // closed (and replaced) whenever the budget may have grown
}

func newRatePacer() *ratePacer { return &ratePacer{changed: make(chan struct{})} }

// acquire returns when a request may be sent now without exceeding the known budget (or ctx ends).
func (p *ratePacer) acquire(ctx context.Context, operation string) error {
	logged := false
	for {
		p.mu.Lock()
		p.rollWindow(time.Now())
		if !p.hasBudget || p.budget > 0 {
			if p.hasBudget {
				p.budget--
			}
			p.inFlight++
			p.mu.Unlock()
			return nil
		}
		changed, end := p.changed, p.windowEnd
		p.mu.Unlock()
		if err := p.waitForChange(ctx, changed, end, operation, !logged); err != nil {
			return err
		}
		logged = true
	}
}

// waitForChange blocks until the budget may have grown: a response arrived, or the known window ended.
func (p *ratePacer) waitForChange(ctx context.Context, changed <-chan struct{}, end time.Time, operation string, log bool) error {
	var timeout <-chan time.Time
	if !end.IsZero() {
		wait := max(0, time.Until(end))
		if log {
			tflog.Info(ctx, "cloudcost API: the rate limit's budget is spent; waiting for the next window", map[string]any{
				"operation": operation, "wait_seconds": wait.Round(time.Millisecond).Seconds()})
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-changed:
	case <-timeout:
	}
	return nil
}

// release records the answer to a request sent after acquire (header nil when none arrived).
func (p *ratePacer) release(status int, header http.Header, receivedAt time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.wake()
	p.inFlight--
	if header == nil {
		return
	}
	limit, okLimit := toCount(header.Get("RateLimit-Limit"))
	remaining, okRemaining := toCount(header.Get("RateLimit-Remaining"))
	reset, okReset := toCount(header.Get("RateLimit-Reset"))
	if !okReset && status == http.StatusTooManyRequests {
		reset, okReset = toCount(header.Get("Retry-After"))
	}
	if !okLimit || !okRemaining || !okReset {
		return
	}
	p.limit = limit
	end := receivedAt.Add(time.Duration(reset) * time.Second)
	// An answer whose window ends a second or more after the one known is from the next window.
	if p.windowEnd.IsZero() || !end.Before(p.windowEnd.Add(time.Second)) {
		p.windowEnd = end
		p.budget = remaining - p.inFlight
	} else {
		if end.Before(p.windowEnd) {
			p.windowEnd = end
		}
		if !p.hasBudget {
			p.budget = remaining
		}
		p.budget = min(p.budget, remaining-p.inFlight)
	}
	p.hasBudget = true
	if status == http.StatusTooManyRequests {
		p.budget = min(p.budget, 0)
	}
}

// rollWindow: past the known window's end, the budget is the whole limit again (less what is in flight).
func (p *ratePacer) rollWindow(now time.Time) {
	if !p.windowEnd.IsZero() && !now.Before(p.windowEnd) && p.limit > 0 {
		p.budget = p.limit - p.inFlight
		p.windowEnd = time.Time{}
	}
}

func (p *ratePacer) wake() {
	close(p.changed)
	p.changed = make(chan struct{})
}

func toCount(value string) (int, bool) {
	v := strings.TrimSpace(value)
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}
