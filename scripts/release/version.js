"use strict";
/**
 * The release's versions and CHANGELOGs, from the changesets in .changeset/ (`changeset version`), computed in a
 * scratch clone of HEAD so that a dry run leaves the working tree as it was. The fixed group of config.json
 * (@cloudcost/api, pulumi, policies, sandbox) gives THE release version; what is not an npm package of that group
 * takes it too: the native plugin (private, so changesets leaves it), whose version is the schema's and so the
 * SDKs', and the Go modules and the Terraform provider, which are versioned by their tags.
 */
const { existsSync, readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { REPO, run, log } = require("./common.js");

/** The package whose version is the release's (any of the fixed group would do). */
const VERSION_SOURCE = join("provider", "package.json");

/**
 * Clones HEAD of the repository into SCRATCH and applies the pending changesets there.
 * @param {string} scratch an absent folder
 * @returns {{ version: string, previous: string, scratch: string, changed: string[] }}
 */
function cutVersion(scratch) {
  if (existsSync(scratch)) throw new Error(`${scratch} exists; the release clones into a fresh folder`);
  const previous = readVersion(REPO);
  // --shared: the clone borrows the repository's objects; nothing is pushed back from it but a patch.
  run("git", ["clone", "--quiet", "--shared", "--no-checkout", REPO, scratch]);
  run("git", ["checkout", "--quiet", "--detach", run("git", ["rev-parse", "HEAD"]).trim()], { cwd: scratch });
  const pending = run("git", ["ls-files", ".changeset"], { cwd: scratch })
    .split("\n")
    .filter((f) => f.endsWith(".md") && !f.endsWith("README.md"));
  if (pending.length === 0) log("no changesets pending: the release re-cuts the current version");
  else run(join(REPO, "node_modules", ".bin", "changeset"), ["version"], { cwd: scratch });
  const version = readVersion(scratch);
  setVersion(join(scratch, "native", "package.json"), version);
  const changed = run("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: scratch })
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3));
  log(`version ${previous} -> ${version} (${pending.length} changesets)`);
  return { version, previous, scratch, changed };
}

/** @param {string} root */
function readVersion(root) {
  return /** @type {{ version: string }} */ (JSON.parse(readFileSync(join(root, VERSION_SOURCE), "utf8"))).version;
}

/** Sets a package.json's `version` by a textual edit, keeping its formatting. */
function setVersion(file, version) {
  const text = readFileSync(file, "utf8");
  const next = text.replace(/^(\s*"version":\s*")[^"]*(")/m, `$1${version}$2`);
  if (next === text && !text.includes(`"version": "${version}"`)) throw new Error(`${file}: no "version" field`);
  writeFileSync(file, next);
}

module.exports = { cutVersion, readVersion };
