"use strict";
/**
 * The flags every Go build of ours starts with (the pinned CLIs, our language hosts, OpenTofu, the release's
 * provider binaries): -trimpath (no path of this machine in a binary), and no DWARF from the compiler
 * (-gcflags=all=-dwarf=false): each of these builds links with -s -w, which drops it anyway, so the binaries are the
 * same and a cold build costs an eighth less CPU (the Terraform provider: 70 → 61 CPU s; issue 39).
 *
 * Plain JavaScript with no dependencies: the scripts that use it run before `npm ci`.
 */
const LEAN_BUILD_FLAGS = ["-trimpath", "-gcflags=all=-dwarf=false"];

/**
 * The flags of the pinned CLIs' builds (the Pulumi CLI, our language hosts, OpenTofu) and of every Go program the tests
 * build beside them: the lean ones, and the build tags osusergo (Go's own user lookup, not libc's through cgo) and
 * grpcnotrace (gRPC without golang.org/x/net/trace's debug pages). Go's build cache keys every compiled package by its
 * flags as well as by its module's version, so only builds with one set of flags share what they compile: the two CLIs
 * share about 1,000 packages (the standard library, gRPC, protobuf, the cloud SDKs of their state backends), which a
 * cold CI then compiles once (issue 39; scripts/opentofu/README.md). CI's `go test ./langhost` (.ci/run) uses them too,
 * and so reuses what the CLI's build compiled.
 */
const CLI_BUILD_FLAGS = [...LEAN_BUILD_FLAGS, "-tags", "osusergo,grpcnotrace"];

/**
 * The environment of a `go` command in one of our wrapper modules (the pinned CLIs' builds): the module is the main
 * one wherever this repository sits inside another Go workspace (GOWORK=off), go.sum is never rewritten
 * (-mod=readonly), and the caller's GOFLAGS are kept before it, so a flag such as `-p=8` (CI's builds, beside its test
 * cells: .ci/run) reaches the build.
 */
function wrapperModuleEnv() {
  const goflags = [process.env.GOFLAGS, "-mod=readonly"].filter(Boolean).join(" ");
  return { ...process.env, GOWORK: "off", GOFLAGS: goflags };
}

module.exports = { CLI_BUILD_FLAGS, LEAN_BUILD_FLAGS, wrapperModuleEnv };
