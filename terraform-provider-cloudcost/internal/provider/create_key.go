package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// CreateKeys derives the Idempotency-Key of every create, so that the `tofu apply` that follows an
// interrupted one (killed after the service answered a create, before the state was written) sends the same
// key and gets the first object back instead of making a second. Terraform gives a provider no resource
// address, so the key is derived from what an apply and its retry share:
//
//		key = "tf." + H(scope)[:16] + "." + H(type, request body, n)[:32]
//
//	  - scope: create_key_scope (or CLOUDCOST_CREATE_KEY_SCOPE), else the root module's directory (the working
//	    directory OpenTofu starts the provider in). It keeps two configurations of one organization apart; the
//	    service keeps keys per organization already. It is a fixed prefix, so `GET /idempotency-keys?prefix=tf.<H>.`
//	    lists every object this configuration's creates made in the last 24 hours.
//	  - type and request body: the exact JSON the create sends (sensitive values only as part of the hash), so a
//	    create with other values is another create, and the service never sees one key with two bodies (a 422).
//	    Callers put sets in a fixed order.
//	  - n: how many creates of the same type and body this provider process made before, so two identical
//	    resources in one configuration get two keys and two objects — never one object under two addresses. They
//	    are interchangeable, so which of them gets which object on a retry does not matter.
//
// Where it cannot help (README, "If tofu apply is interrupted"): a retry after the configuration's values of an
// interrupted create changed, from another directory without create_key_scope, or more than 24 hours later
// makes a new object; the listing by prefix finds the leftover. And an identical resource (same type and body)
// added to a configuration in a later apply, within 24 hours of its twin's create, would be answered with the
// twin's object: the provider sees neither the state nor the other addresses. Change one value of it (its name)
// to tell them apart.
type CreateKeys struct {
	prefix string

	mu   sync.Mutex
	seen map[string]int
}

// NewCreateKeys returns the key deriver for scope ("" for the working directory).
func NewCreateKeys(scope string) (*CreateKeys, error) {
	if scope == "" {
		dir, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("create_key_scope is not set and the working directory is unknown (%w); set create_key_scope or CLOUDCOST_CREATE_KEY_SCOPE", err)
		}
		if resolved, err := filepath.EvalSymlinks(dir); err == nil {
			dir = resolved
		}
		scope = "dir:" + dir
	}
	return &CreateKeys{prefix: "tf." + digest([]byte(scope))[:16] + ".", seen: map[string]int{}}, nil
}

// Prefix is what every create key of this configuration begins with.
func (k *CreateKeys) Prefix() string { return k.prefix }

// Next returns the key for one create of resourceType sending body; each call counts, so call it once per
// Create.
func (k *CreateKeys) Next(resourceType string, body any) (string, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return "", fmt.Errorf("deriving the create key: %w", err)
	}
	base := digest(append([]byte(resourceType+"\n"), data...))
	k.mu.Lock()
	n := k.seen[base]
	k.seen[base] = n + 1
	k.mu.Unlock()
	return k.prefix + digest([]byte(base + "\n" + strconv.Itoa(n)))[:32], nil
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// errNotConfigured is returned when a resource is used before the provider could be configured.
var errNotConfigured = errors.New("the provider is not configured: its settings depend on values not known yet")
