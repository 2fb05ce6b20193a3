"use strict";
/**
 * A copy of a Go module from Go's module cache, edited by exact text, for the pinned CLIs' builds (issue 39): the
 * Pulumi CLI and OpenTofu are built from copies that leave out the libraries of features no test, example or doc here
 * uses (cloud SDKs, an OpenAPI parser: scripts/pulumi-cli-trims.js, scripts/opentofu-trims.js), and the build's go.mod
 * replaces the module by its copy.
 *
 * Each edit names the text it expects: a pattern must match exactly once and a file to delete must exist, so a release
 * whose files have another shape fails the build with the file and the edit to look at, never builds something else.
 *
 * Plain JavaScript with no dependencies: the build scripts run before `npm ci`.
 */
const {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} = require("node:fs");
const { basename, join } = require("node:path");

class TrimError extends Error {}

/**
 * @typedef {object} Edit
 * @property {string} file the file, relative to the module's root
 * @property {string} what what the edit takes out, for the error when the text is not found
 * @property {RegExp} [pattern] matched with the `m` flag; must match exactly once
 * @property {string | ((match: string) => string)} [replacement] what replaces it ("" by default)
 * @property {true} [remove] the file is deleted instead
 * @property {string} [text] the file is written (a new file) with this text instead
 */

/** SOURCE with the one match of PATTERN replaced; throws when it matches no place or more than one. */
function replaceOnce(source, pattern, replacement, where) {
  const matches = source.match(new RegExp(pattern.source, "gm")) ?? [];
  if (matches.length !== 1) throw new TrimError(`${where}: expected one match, found ${matches.length}`);
  return source.replace(new RegExp(pattern.source, "m"), replacement);
}

/** Makes the files and folders under DIR writable by their owner (the module cache's are read-only). */
function makeWritable(dir) {
  chmodSync(dir, statSync(dir).mode | 0o200);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else chmodSync(path, statSync(path).mode | 0o200);
  }
}

/** Applies EDITS to the module at ROOT (already a writable copy); NAME says whose module, in errors. */
function applyEdits(root, edits, name) {
  for (const edit of edits) {
    const path = join(root, edit.file);
    const where = `${name} ${edit.file} (${edit.what})`;
    if (edit.text !== undefined) {
      if (existsSync(path)) throw new TrimError(`${where}: the file to add already exists`);
      writeFileSync(path, edit.text);
    } else if (edit.remove) {
      if (!existsSync(path)) throw new TrimError(`${where}: the file to delete does not exist`);
      rmSync(path);
    } else {
      if (!existsSync(path)) throw new TrimError(`${where}: no such file`);
      writeFileSync(path, replaceOnce(readFileSync(path, "utf8"), edit.pattern, edit.replacement ?? "", where));
    }
  }
}

/** What a build never reads: tests and their data (most of a module's files: pkg/v3 has 17,000, 92 MB). */
const notForBuilds = (path) => !path.endsWith("_test.go") && basename(path) !== "testdata";

/** Copies the module at MODULE_DIR (Go's module cache) to DEST, without its tests, and applies EDITS to the copy. */
function editedModuleCopy(moduleDir, dest, edits, name) {
  cpSync(moduleDir, dest, { recursive: true, filter: notForBuilds });
  makeWritable(dest);
  try {
    applyEdits(dest, edits, name);
  } catch (err) {
    if (err instanceof TrimError) err.message += ": the edits in scripts/*-trims.js need updating for this release";
    throw err;
  }
}

/** Go's `replace` directive of MODULE by the folder DIR (quoted: a clone may sit under a path with spaces). */
function replaceDirective(module, dir) {
  return `replace ${module} => ${JSON.stringify(dir)}\n`;
}

/**
 * Writes into DEST (a new folder) a copy of each module TRIMS names, edited, and the go.mod and go.sum of a build that
 * uses them: the wrapper module's (in WRAPPER_DIR), plus a `replace` of each module by its copy. Returns the go.mod's
 * path, for `go build -modfile=…` (Go reads the go.sum beside it). DIR_OF(module) is the module's folder in Go's
 * module cache (`go list -m -f {{.Dir}}`). Go refuses `-overlay` for files in the module cache, hence the copies.
 */
function writeTrimmedBuild(wrapperDir, trims, dest, dirOf) {
  mkdirSync(dest);
  let modfile = `${readFileSync(join(wrapperDir, "go.mod"), "utf8")}\n`;
  for (const [module, edits] of Object.entries(trims)) {
    const copy = join(dest, module.replaceAll("/", "_"));
    editedModuleCopy(dirOf(module), copy, edits, module);
    modfile += replaceDirective(module, copy);
  }
  writeFileSync(join(dest, "build.mod"), modfile);
  copyFileSync(join(wrapperDir, "go.sum"), join(dest, "build.sum"));
  return join(dest, "build.mod");
}

module.exports = { TrimError, applyEdits, writeTrimmedBuild };
