package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/internal/client"
)

// Reads in pages (issue 38), the rule of the Pulumi doors (provider/src/runtime/refresh-listing.ts). A
// refresh of N resources is N Reads, sent by OpenTofu at -parallelism in its own order; answering each with
// its own `GET /{kind}/{id}` costs N requests, a minute of the service's rate limit (600 a minute) per 600
// resources at every plan. So the Reads of one kind in one provider process (one configured provider = one
// set of credentials, one organization) are answered from ONE listing of that kind, pages of 200, fetched
// once and kept for the rest of the process:
//   - the first Read of a kind takes its own GET (a lone read, such as an import of one, costs one request);
//   - the second starts the listing; every Read that arrives while it is fetched waits for it (single
//     flight), and every later Read is answered from it: K GETs plus the pages for K kinds, in any order;
//   - an id missing from the listing is confirmed with its own GET (a 404 there, and only there, is "gone");
//   - a listing that fails (after the client's retries) or exceeds maxListed is not used: every later Read
//     of the kind takes its own GET;
//   - an object this process updates or deletes is never answered from the listing again.
//
// Why a listing may serve the whole process: OpenTofu starts the provider afresh for every operation (and
// for each of plan and apply inside `apply`), so the listing is fetched after the operation started and
// sees every change made outside before it, which is what a refresh promises.

// maxListed is the largest listing taken (50 pages); a bigger organization is read with GETs.
const maxListed = 10_000

// readListing is the listing of one kind.
type readListing[A any] struct {
	kind string
	list func(context.Context) ([]A, error)
	get  func(context.Context, string) (A, error)
	idOf func(A) string

	mu      sync.Mutex
	reads   int
	fetched chan struct{} // closed when items is final; nil until the second Read
	items   map[string]A  // nil when the listing is not usable
	written map[string]bool
}

func newReadListing[A any](kind string, list func(context.Context) ([]A, error), get func(context.Context, string) (A, error), idOf func(A) string) *readListing[A] {
	return &readListing[A]{kind: kind, list: list, get: get, idOf: idOf, written: map[string]bool{}}
}

// read returns the object id exactly as its own GET would: from the listing when it has it (and this
// process has not written it since), else from that GET (whose 404 says it is gone).
func (l *readListing[A]) read(ctx context.Context, id string) (A, error) {
	l.mu.Lock()
	l.reads++
	first := l.reads == 1
	start := !first && l.fetched == nil
	if start {
		l.fetched = make(chan struct{})
	}
	fetched := l.fetched
	l.mu.Unlock()
	if first {
		return l.get(ctx, id)
	}
	if start {
		// Not bound to this Read's cancellation: other Reads wait for the same listing.
		go l.fetch(context.WithoutCancel(ctx))
	}
	select {
	case <-fetched:
	case <-ctx.Done():
		var zero A
		return zero, ctx.Err()
	}
	l.mu.Lock()
	found, ok := l.items[id]
	ok = ok && !l.written[id]
	l.mu.Unlock()
	if ok {
		tflog.Debug(ctx, "cloudcost: read answered from the listing", map[string]any{"kind": l.kind, "id": id})
		return found, nil
	}
	return l.get(ctx, id)
}

func (l *readListing[A]) fetch(ctx context.Context) {
	all, err := l.list(ctx)
	var items map[string]A
	switch {
	case err != nil:
		// The listing is an optimisation: whatever went wrong, each Read asks for its own object instead.
		tflog.Warn(ctx, "cloudcost: the listing failed; reading each object with its own GET", map[string]any{"kind": l.kind, "error": err.Error()})
	case len(all) > maxListed:
		tflog.Debug(ctx, "cloudcost: the listing is too large to keep; reading each object with its own GET", map[string]any{"kind": l.kind, "items": len(all)})
	default:
		items = make(map[string]A, len(all))
		for _, a := range all {
			items[l.idOf(a)] = a
		}
		tflog.Debug(ctx, "cloudcost: listing fetched for the reads of this process", map[string]any{"kind": l.kind, "items": len(all)})
	}
	l.mu.Lock()
	l.items = items
	close(l.fetched)
	l.mu.Unlock()
}

// wrote records a write of object id through this process: from now on its Reads take their own GET.
func (l *readListing[A]) wrote(id string) {
	l.mu.Lock()
	l.written[id] = true
	l.mu.Unlock()
}

// readListings are the provider process's listings, one per kind with a Read.
type readListings struct {
	groups  *readListing[*client.CloudGroup]
	alerts  *readListing[*client.BudgetAlert]
	reports *readListing[*client.ScheduledReport]
}

func newReadListings(c *client.Client) *readListings {
	return &readListings{
		groups:  newReadListing("cloudcost_cloud_group", pointers(c.ListGroups), c.GetGroup, func(g *client.CloudGroup) string { return g.ID }),
		alerts:  newReadListing("cloudcost_budget_alert", pointers(c.ListAlerts), c.GetAlert, func(a *client.BudgetAlert) string { return a.ID }),
		reports: newReadListing("cloudcost_scheduled_report", pointers(c.ListReports), c.GetReport, func(r *client.ScheduledReport) string { return r.ID }),
	}
}

// pointers adapts a client listing to the pointers its GET returns.
func pointers[T any](list func(context.Context) ([]T, error)) func(context.Context) ([]*T, error) {
	return func(ctx context.Context) ([]*T, error) {
		all, err := list(ctx)
		out := make([]*T, len(all))
		for i := range all {
			out[i] = &all[i]
		}
		return out, err
	}
}
