package provider

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
)

// CreateKeys derives the Idempotency-Key of every create (issue 37):
//
//	key = "tf." + H(scope)[:16] + "." + H(run, n)[:32]
//
// A key is answered with an earlier object only when the service saw the same key before, and the service
// answers whoever sends it. So a key must name one create of one resource instance, and nothing else: a key
// two instances could both send gives them one object, and the next destroy of either deletes the other's
// budget while reporting success. Terraform gives a provider neither the resource's address nor the state, so
// nothing the provider sees tells a retry of an interrupted create from its twin — another address with the same
// values (a renamed address, a `create_before_destroy` replacement, a second workspace, a copied directory, an
// identical resource added later). Hence:
//
//   - run: a random value drawn once per provider process (one `tofu apply`). A key is never sent by two
//     processes, so no create is ever answered with an object another address, workspace or configuration holds.
//     Within the process, the transport's retries of one create (a timeout, a dropped connection, a 5xx) send
//     the same key: the object made by an attempt whose answer was lost is the one the create gets.
//   - n: how many creates this process began before this one, so two creates of one apply (two identical
//     resources among them) never share a key. The values sent are not part of it: a key is never reused, so
//     the service never sees one key with two bodies.
//   - scope: create_key_scope (or CLOUDCOST_CREATE_KEY_SCOPE), else the root module's directory; and the
//     selected workspace, always. It names the configuration, not the create: a fixed prefix, so
//     `GET /idempotency-keys?prefix=tf.<H>.` lists every object this configuration's creates made in the last 24
//     hours, which is how `cloudcost-unmanaged` finds what an interrupted apply left (README, "If tofu apply is
//     interrupted"). With the workspace in it, one workspace's leftovers never list another's objects.
//
// The price: an apply killed after the service answered a create, before the state was written, leaves that
// object outside the state, and the next apply makes a second one. A duplicate is found and adopted or
// removed (`cloudcost-unmanaged` prints its import block); a shared object is a deleted budget.
type CreateKeys struct {
	prefix string
	run    string
	n      atomic.Uint64
}

// NewCreateKeys returns the key deriver for scope ("" for the working directory); the selected workspace is
// part of the prefix either way, so one workspace's leftovers never list another's objects.
func NewCreateKeys(scope string) (*CreateKeys, error) {
	dir, err := os.Getwd()
	if err != nil && scope == "" {
		return nil, fmt.Errorf("create_key_scope is not set and the working directory is unknown (%w); set create_key_scope or CLOUDCOST_CREATE_KEY_SCOPE", err)
	}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		dir = resolved
	}
	if scope == "" {
		scope = "dir:" + dir
	}
	scope += "\nworkspace:" + selectedWorkspace(dir)
	run := make([]byte, 16)
	if _, err := rand.Read(run); err != nil {
		return nil, fmt.Errorf("drawing this run's create-key value: %w", err)
	}
	return &CreateKeys{prefix: "tf." + digest([]byte(scope))[:16] + ".", run: hex.EncodeToString(run)}, nil
}

// selectedWorkspace is the workspace OpenTofu and Terraform run in the root module dir: TF_WORKSPACE when set
// (it overrides the selection), else what `tofu workspace select` wrote to <data dir>/environment, else
// "default" (internal/command/meta.go: Meta.Workspace and WorkspaceNameEnvVar, DefaultDataDir, the
// "environment" file).
func selectedWorkspace(dir string) string {
	if ws := os.Getenv("TF_WORKSPACE"); ws != "" {
		return ws
	}
	data := os.Getenv("TF_DATA_DIR")
	if data == "" {
		data = ".terraform"
	}
	if !filepath.IsAbs(data) {
		data = filepath.Join(dir, data)
	}
	if ws, err := os.ReadFile(filepath.Join(data, "environment")); err == nil && strings.TrimSpace(string(ws)) != "" {
		return strings.TrimSpace(string(ws))
	}
	return "default"
}

// Prefix is what every create key of this configuration begins with.
func (k *CreateKeys) Prefix() string { return k.prefix }

// Next returns the key of one create; call it once per Create (its retries send what it returned).
func (k *CreateKeys) Next() string {
	n := k.n.Add(1)
	return k.prefix + digest([]byte(k.run + "\n" + strconv.FormatUint(n, 10)))[:32]
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// errNotConfigured is returned when a resource is used before the provider could be configured.
var errNotConfigured = errors.New("the provider is not configured: its settings depend on values not known yet")
