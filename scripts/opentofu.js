#!/usr/bin/env node
"use strict";
/**
 * The real OpenTofu CLI, built once from its Go module into `.cache/opentofu/<version>/bin/tofu` (gitignored):
 * `github.com/opentofu/opentofu/cmd/tofu` at the release pinned in scripts/opentofu/go.mod, with go.sum
 * checksumming every module, and the one `replace` of the release's own go.mod copied (OpenTofu builds on its
 * fork of hcl/v2; without it `internal/lang/blocktoattr` does not compile). See scripts/opentofu/README.md.
 *
 * The build is the ordinary Go one (`go build` with scripts/go-build.js's flags for the CLIs, `version.dev=no` as release
 * builds set it, so `tofu version` prints the plain release) from the module proxy Go is configured with, of copies of the
 * release's module and go-getter's without the cloud SDKs scripts/opentofu-trims.js leaves out (remote-state backends,
 * cloud KMS key providers, s3:: and gcs:: module sources: nothing here uses them); nothing of OpenTofu's source is kept
 * in this repository. A complete folder built from the same inputs (go.mod, go.sum, tools.go, the trims and
 * scripts/go-module-copy.js: their digest is stamped into it)
 * is reused; a build goes to a temporary folder first and is renamed into place, so an interrupted or concurrent build
 * never leaves half a folder behind.
 *
 *   node scripts/opentofu.js              builds (or reuses) and prints one line
 *   node scripts/opentofu.js --print-bin  the same, then the path of the tofu executable as the last line
 *
 * Plain JavaScript with no dependencies: it may run before `npm ci`.
 */
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const { join, relative } = require("node:path");
const { CLI_BUILD_FLAGS, wrapperModuleEnv } = require("./go-build.js");
const { TrimError, writeTrimmedBuild } = require("./go-module-copy.js");
const { TRIMS } = require("./opentofu-trims.js");

const REPO = join(__dirname, "..");
const MODULE_DIR = join(__dirname, "opentofu");
const TOFU = "github.com/opentofu/opentofu";

/** The version go.mod pins for OpenTofu ("v1.12.6"). */
function pinned() {
  const found = readFileSync(join(MODULE_DIR, "go.mod"), "utf8").match(/^(?:require\s+)?\s*github\.com\/opentofu\/opentofu\s+(v\S+)/m);
  if (!found) throw new Error(`${relative(REPO, join(MODULE_DIR, "go.mod"))} does not require ${TOFU}`);
  return found[1];
}

const VERSION = pinned();
const CACHE = join(REPO, ".cache", "opentofu", VERSION);
const BIN = join(CACHE, "bin");
const EXECUTABLE = join(BIN, "tofu");
/** What a build is made from, with its flags and what it leaves out: a change to any of them means the folder is stale. */
const INPUTS = ["go.mod", "go.sum", "tools.go", "../opentofu-trims.js", "../go-module-copy.js"];
/** Written into the bin folder: the digest of INPUTS and the build flags the build was made from. */
const STAMP = ".inputs-sha256";

function inputsDigest() {
  const hash = createHash("sha256").update(`${CLI_BUILD_FLAGS.join(" ")}\0`);
  for (const file of INPUTS) hash.update(`${file}\0`).update(readFileSync(join(MODULE_DIR, file)));
  return hash.digest("hex");
}

class BuildError extends Error {}

/** Runs `go ARGS` in the wrapper module; returns stdout, or throws with what Go said. */
function go(args, what) {
  const result = spawnSync("go", args, {
    cwd: MODULE_DIR,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: wrapperModuleEnv(),
  });
  if (result.error) throw new BuildError(`could not run go (${what}): ${result.error.message}`);
  if (result.status !== 0) {
    const said = (result.stderr || "").trim().split("\n").slice(-12).join("\n");
    throw new BuildError(`${what} failed:\n${said}`);
  }
  return result.stdout;
}

function requireGo() {
  const result = spawnSync("go", ["version"], { encoding: "utf8" });
  if (result.error || result.status !== 0) {
    throw new BuildError(
      "Go is needed to build OpenTofu from its module and was not found on the PATH: install Go " +
        `(go.dev/doc/install), or install OpenTofu ${VERSION} with its official installer and set TF_ACC_TERRAFORM_PATH to it.`,
    );
  }
  return result.stdout.trim();
}

/** `OpenTofu v1.12.6` → the build answers with the pinned release. */
function answersVersion(executable) {
  // An empty CLI configuration: a TF_CLI_CONFIG_FILE naming a missing file makes tofu print a warning to stdout.
  const env = { ...process.env, TF_IN_AUTOMATION: "1", TF_CLI_CONFIG_FILE: "/dev/null" };
  const version = spawnSync(executable, ["version", "-json"], { encoding: "utf8", env });
  if (version.status !== 0) return false;
  try {
    return `v${JSON.parse(version.stdout.slice(version.stdout.indexOf("{"))).terraform_version}` === VERSION;
  } catch {
    return false;
  }
}

function isComplete() {
  if (!existsSync(EXECUTABLE)) return false;
  if (!existsSync(join(BIN, STAMP)) || readFileSync(join(BIN, STAMP), "utf8") !== inputsDigest()) return false;
  return answersVersion(EXECUTABLE);
}

/**
 * Builds `tofu` into STAGING from copies of the pinned modules without what scripts/opentofu-trims.js leaves out: the
 * copies, and a go.mod of the wrapper's with a `replace` to each (`go build -modfile`), in a folder that is removed
 * afterwards. Every other module comes from Go's module cache as before, so Go's build cache shares their packages with
 * the Pulumi CLI's build; -trimpath keeps the copies' paths out of the binary and the build cache's keys.
 */
function buildTrimmed(staging) {
  const work = mkdtempSync(join(CACHE, "modules-"));
  try {
    const dirOf = (module) => go(["list", "-m", "-f", "{{.Dir}}", module], `finding the module ${module}`).trim();
    const modfile = writeTrimmedBuild(MODULE_DIR, TRIMS, join(work, "build"), dirOf);
    go(
      [
        "build",
        `-modfile=${modfile}`,
        ...CLI_BUILD_FLAGS,
        "-ldflags",
        `-s -w -X ${TOFU}/version.dev=no`,
        "-o",
        join(staging, "tofu"),
        `${TOFU}/cmd/tofu`,
      ],
      "building tofu (without the cloud SDKs of scripts/opentofu-trims.js)",
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Builds (or reuses) the bin folder; returns the path of `tofu`. */
function ensureOpenTofu() {
  const shown = relative(process.cwd(), EXECUTABLE) || EXECUTABLE;
  if (isComplete()) {
    console.log(`OpenTofu ${VERSION}: ${shown} (built before)`);
    return EXECUTABLE;
  }
  const goVersion = requireGo();
  const began = Date.now();
  console.log(`OpenTofu ${VERSION}: building from its Go module with ${goVersion} into ${shown} (the first build takes minutes) ...`);
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, "bin-"));
  chmodSync(staging, 0o755);
  try {
    try {
      // Listing the target's dependencies fetches exactly the modules it needs (not `go mod download`,
      // which also wants modules of the graph no package imports).
      go(["list", "-deps", "-f", "{{.ImportPath}}", `${TOFU}/cmd/tofu`], "downloading the Go modules");
    } catch (err) {
      const proxy = spawnSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).stdout.trim();
      throw new BuildError(`${err.message}\nIs the Go module proxy reachable (GOPROXY=${proxy})?`, { cause: err });
    }
    buildTrimmed(staging);
    if (!answersVersion(join(staging, "tofu"))) throw new BuildError(`the tofu just built does not answer \`version\` with ${VERSION}`);
    writeFileSync(join(staging, STAMP), inputsDigest());
    rmSync(BIN, { recursive: true, force: true });
    renameSync(staging, BIN);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  console.log(`OpenTofu ${VERSION}: built in ${Math.round((Date.now() - began) / 1000)} s`);
  return EXECUTABLE;
}

module.exports = { ensureOpenTofu, OPENTOFU_VERSION: VERSION, TOFU_EXECUTABLE: EXECUTABLE };

if (require.main === module) {
  try {
    const tofu = ensureOpenTofu();
    if (process.argv.includes("--print-bin")) console.log(tofu);
  } catch (err) {
    console.error(err instanceof BuildError || err instanceof TrimError ? `scripts/opentofu.js: ${err.message}` : err);
    process.exitCode = 1;
  }
}
