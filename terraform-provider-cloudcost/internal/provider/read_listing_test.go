package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// The listing's rules that a real tofu run cannot be made to show on demand (a listing that fails, a write
// during the process); the counts through tofu are in tofu_test.go, reads_in_pages_test.go and
// rate_limit_test.go. The service here is a map behind the list and get functions the provider passes.
type fakeKind struct {
	mu          sync.Mutex
	objects     map[string]string
	lists, gets atomic.Int32
	listFails   bool
}

var errGone = errors.New("404")

func (f *fakeKind) listing() *readListing[string] {
	return newReadListing("test", func(context.Context) ([]string, error) {
		f.lists.Add(1)
		if f.listFails {
			return nil, errors.New("503 after every retry")
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		var all []string
		for id, v := range f.objects {
			all = append(all, id+"="+v)
		}
		return all, nil
	}, func(_ context.Context, id string) (string, error) {
		f.gets.Add(1)
		f.mu.Lock()
		defer f.mu.Unlock()
		v, ok := f.objects[id]
		if !ok {
			return "", errGone
		}
		return id + "=" + v, nil
	}, func(s string) string { return s[:3] })
}

func newFakeKind(n int) *fakeKind {
	f := &fakeKind{objects: map[string]string{}}
	for i := range n {
		f.objects[fmt.Sprintf("%03d", i)] = "v1"
	}
	return f
}

func TestReadListingAnswersManyReadsWithOneGetAndOneListing(t *testing.T) {
	f := newFakeKind(500)
	l := f.listing()
	var wg sync.WaitGroup
	for i := range 500 {
		wg.Go(func() {
			id := fmt.Sprintf("%03d", i)
			if got, err := l.read(context.Background(), id); err != nil || got != id+"=v1" {
				t.Errorf("read %s: %q, %v", id, got, err)
			}
		})
	}
	wg.Wait()
	if f.gets.Load() != 1 || f.lists.Load() != 1 {
		t.Errorf("500 reads should cost 1 GET and 1 listing, cost %d GETs and %d listings", f.gets.Load(), f.lists.Load())
	}
}

func TestReadListingConfirmsWhatItLacksAndReadsWrittenObjectsFresh(t *testing.T) {
	f := newFakeKind(3)
	l := f.listing()
	ctx := context.Background()
	_, _ = l.read(ctx, "000")
	_, _ = l.read(ctx, "001") // the listing, fetched now
	f.mu.Lock()
	f.objects["002"] = "v2" // a write through this process, after the listing
	f.objects["009"] = "new"
	f.mu.Unlock()
	l.wrote("002")
	if got, _ := l.read(ctx, "002"); got != "002=v2" {
		t.Errorf("an object this process wrote should be read fresh, got %q", got)
	}
	if got, _ := l.read(ctx, "009"); got != "009=new" {
		t.Errorf("an object the listing lacks should be read with its own GET, got %q", got)
	}
	if _, err := l.read(ctx, "404"); !errors.Is(err, errGone) {
		t.Errorf("an object gone should be the GET's 404, got %v", err)
	}
	if f.gets.Load() != 4 || f.lists.Load() != 1 {
		t.Errorf("want 4 GETs and 1 listing, got %d and %d", f.gets.Load(), f.lists.Load())
	}
}

func TestReadListingThatFailsFallsBackToGets(t *testing.T) {
	f := newFakeKind(10)
	f.listFails = true
	l := f.listing()
	for i := range 10 {
		id := fmt.Sprintf("%03d", i)
		if got, err := l.read(context.Background(), id); err != nil || got != id+"=v1" {
			t.Errorf("read %s: %q, %v", id, got, err)
		}
	}
	if f.gets.Load() != 10 || f.lists.Load() != 1 {
		t.Errorf("a failed listing is tried once, then every read GETs: %d GETs, %d listings", f.gets.Load(), f.lists.Load())
	}
}
