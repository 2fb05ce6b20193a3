package provider

import (
	"math"
	"strings"
)

// The service answers some fields in its own form: names trimmed, e-mail addresses trimmed and lower-cased,
// Azure subscription IDs lower-cased, sets in its order, empty lists left out. Terraform requires what
// apply stores to equal the plan, and a refresh that stores the service's spelling would show a change
// nobody made. So state keeps what was written (the plan after a create or update, the prior state after
// a refresh) whenever the answer means the same to the service, and takes the answer otherwise: a change
// made outside shows as drift, a respelling never does.

func keepWritten[T any](written, answered T, same func(a, b T) bool) T {
	if same(written, answered) {
		return written
	}
	return answered
}

func sameTrimmed(a, b string) bool { return trimECMAScript(a) == trimECMAScript(b) }

func sameCents(a, b float64) bool { return math.Round(a*100) == math.Round(b*100) }

// canonicalEmails is a recipient set as the service compares it.
func canonicalEmails(xs []string) []string { return foldedSet(xs) }

func sameEmails(a, b []string) bool { return equalStrings(canonicalEmails(a), canonicalEmails(b)) }

// sameSubscriptionIDs: Azure subscription IDs are GUIDs the service compares case-insensitively (and
// answers in lower case), as a set.
func sameSubscriptionIDs(a, b []string) bool { return equalStrings(foldedSet(a), foldedSet(b)) }

// foldedSet is a set of strings the service trims and lower-cases: sorted, duplicates removed.
func foldedSet(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(trimECMAScript(x))
	}
	return sortedSet(out)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
