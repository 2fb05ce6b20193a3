//go:build tools

// Package tools pins OpenTofu's command as a dependency of this wrapper module, so that go.mod and go.sum
// fix every module the build uses; scripts/opentofu.js builds it with `go build`.
package tools

import _ "github.com/opentofu/opentofu/cmd/tofu"
