//go:build tools

// Package tools names the CLI's main package, so that `go mod tidy` keeps every module it needs in go.mod
// and go.sum (language-nodejs is a package of this module; language-yaml is a module of its own).
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
