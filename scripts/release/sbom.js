"use strict";
/**
 * A CycloneDX SBOM per artifact, each by its ecosystem's CycloneDX generator, written to OUT/sbom/<artifact>.cdx.json:
 *
 *   npm tarballs, plugin  @cyclonedx/cyclonedx-npm (pinned; `npm exec`): the workspace's production dependencies from
 *                         the lockfile; the native SDK's from a lockfile npm resolves for it; the plugin tarballs
 *                         bundle the native workspace's, so theirs is that workspace's
 *   Go                    cyclonedx-gomod (pinned; `go install` into .cache/release/go-tools): `bin` reads the module
 *                         list each provider binary embeds, `mod` each module's graph (resolvedModule: the SDK's
 *                         with the pulumi SDK the CLI is built from)
 *   Python                cyclonedx-py (cyclonedx-bom, in the release's Python tools): the environment a fresh virtual
 *                         environment becomes when the wheel is installed into it, the SDK and what pip resolved
 */
const { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } = require("node:fs");
const { join } = require("node:path");
const { REPO, run, cleanEnv, log } = require("./common.js");
const { pythonTools } = require("./python.js");
const { LEAN_BUILD_FLAGS } = require("../go-build.js");

const CYCLONEDX_NPM = "@cyclonedx/cyclonedx-npm@6.0.1";
const CYCLONEDX_GOMOD = "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0";
const GO_TOOLS = join(REPO, ".cache", "release", "go-tools");

const npmEnv = () => cleanEnv({ npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" });

/** cyclonedx-npm with ARGS in CWD, writing FILE. */
function cyclonedxNpm(cwd, args, file) {
  run(
    "npm",
    ["exec", "--yes", "--package", CYCLONEDX_NPM, "--", "cyclonedx-npm", ...args, "--output-format", "JSON", "--output-file", file],
    {
      cwd,
      env: npmEnv(),
    },
  );
}

/**
 * The cyclonedx-gomod binary, installed on first use; with our builds' flags, so the standard library the provider's
 * builds compiled (in Go's build cache) is not compiled again for it.
 */
function cyclonedxGomod() {
  const bin = join(GO_TOOLS, "cyclonedx-gomod");
  const install = ["install", ...LEAN_BUILD_FLAGS, "-ldflags", "-s -w", CYCLONEDX_GOMOD];
  if (!existsSync(bin)) run("go", install, { env: cleanEnv({ GOBIN: GO_TOOLS, GOWORK: "off", GOFLAGS: "-mod=mod" }) });
  return bin;
}

/**
 * A module folder whose module graph `go list -m all` can read: the Go SDK as gen-sdk writes it has no go.sum, and
 * its floor (pulumi sdk/v3 v3.269.0) needs a pulumi-cloud-sdk version the module proxy here refuses
 * (scripts/pulumi-cli/README.md); so a copy of it, on the sdk/v3 release the CLI is built from, tidied. A module
 * with its go.sum is read in place.
 */
function resolvedModule(dir) {
  if (existsSync(join(dir, "go.sum"))) return dir;
  const copy = `${dir}-sbom`;
  cpSync(dir, copy, { recursive: true });
  const env = cleanEnv({ GOWORK: "off", GOFLAGS: "-mod=mod" });
  run("go", ["get", `github.com/pulumi/pulumi/sdk/v3@${pinnedPulumiSdk()}`], { cwd: copy, env });
  run("go", ["mod", "tidy"], { cwd: copy, env });
  return copy;
}

/** The sdk/v3 version scripts/pulumi-cli/go.mod pins. */
function pinnedPulumiSdk() {
  const pinned = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(
    readFileSync(join(REPO, "scripts", "pulumi-cli", "go.mod"), "utf8"),
  )?.[1];
  if (!pinned) throw new Error("scripts/pulumi-cli/go.mod pins no sdk/v3");
  return pinned;
}

/**
 * @param {{ out: string, scratch: string, version: string, npm: (import("./common.js").Artifact & { source: string })[],
 *   plugin: import("./common.js").Artifact[], python: import("./common.js").Artifact[],
 *   providerBinaries: { os: string, arch: string, file: string }[], providerZip: (os: string, arch: string) => string,
 *   goModules: { folder: string, zip: string }[] }} release
 * @returns {string[]} the SBOM files, relative to OUT
 */
function writeSboms(release) {
  const { out, scratch, version } = release;
  const dir = join(out, "sbom");
  mkdirSync(dir, { recursive: true });
  const written = [];
  const target = (artifactFile) => {
    const file = join(dir, `${artifactFile.replace(/\//g, "_")}.cdx.json`);
    written.push(file.slice(out.length + 1));
    return file;
  };

  for (const { file, source } of release.npm) {
    if (source !== "sdk/nodejs") {
      cyclonedxNpm(REPO, ["--workspace", source, "--omit", "dev", "--package-lock-only"], target(file));
    } else {
      // The native SDK: not a workspace; its dependency tree as npm resolves it for a user.
      const sdk = join(scratch, "sdk", "nodejs");
      run("npm", ["install", "--package-lock-only", "--ignore-scripts", "--omit", "dev"], { cwd: sdk, env: npmEnv() });
      cyclonedxNpm(sdk, ["--omit", "dev", "--package-lock-only"], target(file));
      rmSync(join(sdk, "package-lock.json"));
    }
  }
  if (release.plugin.length > 0) {
    const first = target(release.plugin[0].file);
    cyclonedxNpm(REPO, ["--workspace", "native", "--omit", "dev", "--package-lock-only"], first);
    for (const { file } of release.plugin.slice(1)) copyFileSync(first, target(file));
  }
  log("SBOMs of the npm tarballs and plugin tarballs written");

  const gomod = cyclonedxGomod();
  const goEnv = cleanEnv({ GOWORK: "off", GOFLAGS: "-mod=mod" });
  for (const { os, arch, file } of release.providerBinaries) {
    run(gomod, ["bin", "-json", "-output", target(release.providerZip(os, arch)), "-version", `v${version}`, file], { env: goEnv });
  }
  for (const { folder, zip } of release.goModules) {
    run(gomod, ["mod", "-type", "library", "-json", "-output", target(zip.slice(out.length + 1)), resolvedModule(join(scratch, folder))], {
      env: goEnv,
    });
  }
  log("SBOMs of the Go modules and provider binaries written");

  const wheel = release.python.find((a) => a.file.endsWith(".whl"));
  if (wheel) {
    const venv = join(scratch, ".sbom-venv");
    run("python3", ["-m", "venv", venv]);
    run(join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", join(out, wheel.file)]);
    const first = target(wheel.file);
    run(join(pythonTools(), "cyclonedx-py"), [
      "environment",
      "--output-format",
      "JSON",
      "--output-file",
      first,
      join(venv, "bin", "python"),
    ]);
    // The sdist installs to the same environment.
    for (const { file } of release.python.filter((a) => a !== wheel)) copyFileSync(first, target(file));
    rmSync(venv, { recursive: true, force: true });
  }
  log("SBOMs of the Python packages written");
  return written;
}

module.exports = { writeSboms };
