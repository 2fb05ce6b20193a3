//go:build tools

// Package tools names the main package scripts/pulumi-cli.js builds from this module.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
