#!/usr/bin/env node
"use strict";
/**
 * The real Pulumi CLI, built once from its Go modules into `.cache/pulumi/<version>/bin` (gitignored):
 *
 *   pulumi                          github.com/pulumi/pulumi/pkg/v3/cmd/pulumi, the release pinned in
 *                                   scripts/pulumi-cli/go.mod (with go.sum: every module checksummed)
 *   pulumi-language-yaml            github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
 *   pulumi-language-nodejs          scripts/pulumi-cli/language-nodejs: ours, on the SDK's Go packages, because
 *                                   the module proxy refuses the official host's module (see its main.go)
 *   pulumi-language-python          scripts/pulumi-cli/language-python: ours, likewise
 *   pulumi-language-python-exec     the Python program launcher shipped in the sdk/v3 module (python/cmd/)
 *   pulumi-language-go              scripts/pulumi-cli/language-go: ours, likewise (all three on langhost/)
 *   pulumi-resource-pulumi-nodejs   the dynamic-provider launcher script shipped in the sdk/v3 module
 *
 * The build is the ordinary Go one (`go build` with scripts/go-build.js's flags, the version stamped with -ldflags as release
 * builds do), from the module proxy Go is configured with, of a copy of pkg/v3 without what scripts/pulumi-cli-trims.js
 * leaves out (state in cloud buckets, cloud KMS secrets, `pulumi env setup aws|azure`, `pulumi api`: nothing here uses
 * them; the copy stays in the bin folder, `.trimmed/`, for `go test ./langhost`: PULUMI_BUILD_MODFILE);
 * nothing of Pulumi's source is kept in this repository. A complete folder built from the same inputs (go.mod, go.sum,
 * our host's source, the trims: their digest is stamped into it) is reused; a build goes to a temporary folder first and is renamed into
 * place, so an interrupted or concurrent build never leaves half a folder behind.
 *
 *   node scripts/pulumi-cli.js              builds (or reuses) and prints one line
 *   node scripts/pulumi-cli.js --print-bin  the same, then the bin folder as the last line
 *
 * Plain JavaScript with no dependencies: it may run before `npm ci`.
 */
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require("node:fs");
const { join, relative } = require("node:path");
const { CLI_BUILD_FLAGS, wrapperModuleEnv } = require("./go-build.js");
const { TrimError, writeTrimmedBuild } = require("./go-module-copy.js");
const { TRIMS } = require("./pulumi-cli-trims.js");

const REPO = join(__dirname, "..");
const MODULE_DIR = join(__dirname, "pulumi-cli");
/** pulumi-yaml is built against an older pkg/v3 than the CLI's: a module of its own. */
const YAML_MODULE_DIR = join(MODULE_DIR, "language-yaml");
const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const YAML = "github.com/pulumi/pulumi-yaml";

/** The version a go.mod pins for a module ("v3.274.1"). */
function pinned(module, dir = MODULE_DIR) {
  // `require M v` or, inside a require block, `M v`.
  const found = readFileSync(join(dir, "go.mod"), "utf8").match(
    new RegExp(`^(?:require\\s+)?\\s*${module.replace(/\./g, "\\.")}\\s+(v\\S+)`, "m"),
  );
  if (!found) throw new Error(`${relative(REPO, join(dir, "go.mod"))} does not require ${module}`);
  return found[1];
}

const VERSION = pinned(PKG);
const CACHE = join(REPO, ".cache", "pulumi", VERSION);
const BIN = join(CACHE, "bin");
/** Our language hosts: main packages of the wrapper module, each built into the executable of its folder's name. */
const OUR_HOSTS = ["language-nodejs", "language-python", "language-go"];
const EXECUTABLES = [
  "pulumi",
  ...OUR_HOSTS.map((dir) => `pulumi-${dir}`),
  "pulumi-language-python-exec",
  "pulumi-language-yaml",
  "pulumi-resource-pulumi-nodejs",
];
/** The Go source of our hosts and what they share (langhost/), relative to the wrapper module. */
function ourSources() {
  return [...OUR_HOSTS, "langhost"].flatMap((dir) =>
    readdirSync(join(MODULE_DIR, dir))
      .filter((name) => name.endsWith(".go"))
      .sort()
      .map((name) => `${dir}/${name}`),
  );
}
/**
 * What a build is made from: a change to any of them (our hosts' source, a pin), or to what is stamped into a host
 * (HOST_VARIABLES, also in inputsDigest), means the folder is stale.
 */
const INPUTS = [
  "go.mod",
  "go.sum",
  "tools.go",
  ...ourSources(),
  "language-yaml/go.mod",
  "language-yaml/go.sum",
  "../pulumi-cli-trims.js",
  "../go-module-copy.js",
];
/**
 * The trimmed copy of pkg/v3 and the go.mod that builds with it, in the bin folder: every build of the wrapper module's
 * packages must name it (`go build -modfile=…`), or Go's build cache holds pkg/v3's packages twice (copy and original).
 */
const TRIMMED = ".trimmed";
const BUILD_MODFILE = join(BIN, TRIMMED, "build.mod");
/** Written into the bin folder: the digest of INPUTS the build was made from. */
const STAMP = ".inputs-sha256";

function inputsDigest() {
  const hash = createHash("sha256").update(`${JSON.stringify(HOST_VARIABLES)}\0`);
  for (const file of INPUTS) hash.update(`${file}\0`).update(readFileSync(join(MODULE_DIR, file)));
  return hash.digest("hex");
}

class BuildError extends Error {}

/** Runs `go ARGS` in the wrapper module; returns stdout, or throws with what Go said. */
function go(args, what, cwd = MODULE_DIR) {
  const result = spawnSync("go", args, {
    cwd,
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
      "Go is needed to build the Pulumi CLI from its modules and was not found on the PATH: install Go " +
        `(go.dev/doc/install), or install the Pulumi CLI ${VERSION} with its official installer and put it on the PATH.`,
    );
  }
  return result.stdout.trim();
}

/** The main packages built, as Go names them. */
const TARGETS = [`${PKG}/cmd/pulumi`, ...OUR_HOSTS.map((dir) => `./${dir}`)];
const YAML_TARGET = `${YAML}/cmd/pulumi-language-yaml`;

/**
 * Downloads the modules the build needs (listing the targets' dependencies fetches them); the one step that
 * needs the module proxy. Not `go mod download`: that also wants modules of go.mod's graph no target imports,
 * and the proxy here refuses some of those.
 */
function download() {
  try {
    go(["list", "-deps", "-f", "{{.ImportPath}}", ...TARGETS], "downloading the Go modules");
    go(["list", "-deps", "-f", "{{.ImportPath}}", YAML_TARGET], "downloading the Go modules of pulumi-yaml", YAML_MODULE_DIR);
  } catch (err) {
    const proxy = spawnSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).stdout.trim();
    throw new BuildError(`${err.message}\nIs the Go module proxy reachable (GOPROXY=${proxy})?`);
  }
}

/**
 * The flags our Go language host compiles a program with (`go build FLAGS -o …`; stamped into it below), and every Go
 * program the tests build outside it: the CLI's own. The examples' go.mod files pin the CLI's module versions
 * (test/harness-checks/cli-module-pins.test.ts), so a program's packages that the CLI also compiled (the SDK's, gRPC,
 * protobuf, the standard library) come from Go's build cache; a cold CI compiles them once (issue 39).
 */
const PROGRAM_BUILD_FLAGS = ["-buildvcs=false", ...CLI_BUILD_FLAGS];

/**
 * The build flags of one executable: the CLI's, then a link without symbol table or DWARF that sets each of VARIABLES
 * (`-X 'name=value'`, quoted: a value may hold spaces).
 */
function buildFlags(variables) {
  const stamps = Object.entries(variables).map(([name, value]) => `-X '${name}=${value}'`);
  return [...CLI_BUILD_FLAGS, "-ldflags", ["-s -w", ...stamps].join(" ")];
}

/** What each of our hosts has stamped besides its version: the Go host, the flags it compiles a program with. */
const HOST_VARIABLES = { "language-go": { "main.programBuildFlags": PROGRAM_BUILD_FLAGS.join(" ") } };

function build(out) {
  const dirOf = (module) => go(["list", "-m", "-f", "{{.Dir}}", module], `finding the module ${module}`).trim();
  const modfile = `-modfile=${writeTrimmedBuild(MODULE_DIR, TRIMS, join(out, TRIMMED), dirOf)}`;
  const pulumi = buildFlags({ [`${SDK}/go/common/version.Version`]: VERSION });
  go(
    ["build", modfile, ...pulumi, "-o", join(out, "pulumi"), `${PKG}/cmd/pulumi`],
    "building pulumi (without what scripts/pulumi-cli-trims.js leaves out)",
  );
  for (const dir of OUR_HOSTS) {
    const host = buildFlags({ "main.version": VERSION, ...HOST_VARIABLES[dir] });
    go(["build", modfile, ...host, "-o", join(out, `pulumi-${dir}`), `./${dir}`], `building pulumi-${dir}`);
  }
  // The CLI's flags and (language-yaml/go.mod) the CLI's module versions: the packages the two share compile once.
  const yaml = buildFlags({ [`${YAML}/pkg/version.Version`]: pinned(YAML, YAML_MODULE_DIR) });
  go(["build", ...yaml, "-o", join(out, "pulumi-language-yaml"), YAML_TARGET], "building pulumi-language-yaml", YAML_MODULE_DIR);
  const sdkDir = go(["list", "-m", "-f", "{{.Dir}}", SDK], "locating the sdk/v3 module").trim();
  // The module cache is read-only; the copies must be executable for the engine (and our Python host) to start them.
  for (const [from, name] of [
    [join(sdkDir, "nodejs", "dist"), "pulumi-resource-pulumi-nodejs"],
    [join(sdkDir, "python", "cmd"), "pulumi-language-python-exec"],
  ]) {
    copyFileSync(join(from, name), join(out, name));
    chmodSync(join(out, name), 0o755);
  }
}

function isComplete() {
  if (![...EXECUTABLES, join(TRIMMED, "build.mod")].every((name) => existsSync(join(BIN, name)))) return false;
  if (!existsSync(join(BIN, STAMP)) || readFileSync(join(BIN, STAMP), "utf8") !== inputsDigest()) return false;
  const version = spawnSync(join(BIN, "pulumi"), ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  return version.status === 0 && version.stdout.trim() === VERSION;
}

/** Builds (or reuses) the bin folder; returns it. */
function ensurePulumiCli() {
  const shown = relative(process.cwd(), BIN) || BIN;
  if (isComplete()) {
    console.log(`Pulumi CLI ${VERSION}: ${shown} (built before)`);
    return BIN;
  }
  const goVersion = requireGo();
  const began = Date.now();
  console.log(`Pulumi CLI ${VERSION}: building from its Go modules with ${goVersion} into ${shown} (the first build takes minutes) ...`);
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, "bin-"));
  chmodSync(staging, 0o755);
  try {
    download();
    build(staging);
    // The go.mod names the copy where it will be once STAGING is renamed into place (-trimpath keeps the copy's path
    // out of the binaries and of Go's cache keys: a build with it reuses what this one compiled).
    const modfile = join(staging, TRIMMED, "build.mod");
    writeFileSync(modfile, readFileSync(modfile, "utf8").split(staging).join(BIN));
    writeFileSync(join(staging, STAMP), inputsDigest());
    rmSync(BIN, { recursive: true, force: true });
    renameSync(staging, BIN);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  console.log(`Pulumi CLI ${VERSION}: built in ${Math.round((Date.now() - began) / 1000)} s`);
  return BIN;
}

module.exports = {
  ensurePulumiCli,
  PULUMI_VERSION: VERSION,
  PULUMI_BIN: BIN,
  PULUMI_EXECUTABLES: EXECUTABLES,
  PROGRAM_BUILD_FLAGS,
  PULUMI_BUILD_MODFILE: BUILD_MODFILE,
};

if (require.main === module) {
  try {
    const bin = ensurePulumiCli();
    if (process.argv.includes("--print-bin")) console.log(bin);
  } catch (err) {
    console.error(err instanceof BuildError || err instanceof TrimError ? `scripts/pulumi-cli.js: ${err.message}` : err);
    process.exitCode = 1;
  }
}
