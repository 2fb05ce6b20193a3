"use strict";
/**
 * The state backends our OpenTofu build leaves out, and the copy of OpenTofu's module it is built from (issue 39).
 *
 * Every configuration here (the tests', the examples', the docs', the provider's acceptance tests) keeps its state in
 * the `local` backend; nothing names a backend. Yet most of what `tofu` compiles beyond the Pulumi CLI's packages is the
 * clients of remote-state backends: of the 780 packages OpenTofu does not share with the CLI's build (52 MB of Go),
 * `kubernetes` (client-go and the Kubernetes API types), `cos` and `oss` (Tencent's and Alibaba's SDKs), `consul`, `pg`,
 * `s3`, `gcs` and `azurerm` alone need 363 (28 MB). So the build compiles a copy of the pinned release's module whose
 * backend table (internal/backend/init/init.go, the one place backends are registered) lacks those eight: `local`,
 * `http`, `inmem`, `remote` and `cloud` stay, and with them everything else OpenTofu does (the engine, providers,
 * modules, state encryption). A configuration naming a left-out backend gets OpenTofu's own "Unsupported backend type"
 * error, with a detail that says why and what to use.
 *
 * The copy is made from the module Go downloaded (go.sum checked it), edited by exact text, and each edit must match
 * once: a release whose file has another shape fails the build with the line to look at, never builds something else.
 *
 * Plain JavaScript with no dependencies: scripts/opentofu.js runs before `npm ci`.
 */
const { cpSync, chmodSync, readdirSync, readFileSync, statSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

/** The file of OpenTofu's module that registers every backend. */
const BACKEND_TABLE = "internal/backend/init/init.go";

/** Left out: the backend's name in a configuration → the name its package is imported under in BACKEND_TABLE. */
const LEFT_OUT_BACKENDS = {
  azurerm: "backendAzure",
  consul: "backendConsul",
  cos: "backendCos",
  gcs: "backendGCS",
  kubernetes: "backendKubernetes",
  oss: "backendOSS",
  pg: "backendPg",
  s3: "backendS3",
};

class TrimError extends Error {}

/** SOURCE with the one match of PATTERN replaced by REPLACEMENT; throws when it matches no line or more than one. */
function replaceOnce(source, pattern, replacement, what) {
  const matches = source.match(new RegExp(pattern.source, "gm")) ?? [];
  if (matches.length !== 1) {
    throw new TrimError(`${BACKEND_TABLE}: expected one ${what}, found ${matches.length}: scripts/opentofu-backends.js needs updating`);
  }
  return source.replace(new RegExp(pattern.source, "m"), replacement);
}

/** BACKEND_TABLE's text without the left-out backends' imports and entries, each named in RemovedBackends instead. */
function trimBackendTable(source) {
  let trimmed = source;
  for (const [name, alias] of Object.entries(LEFT_OUT_BACKENDS)) {
    trimmed = replaceOnce(trimmed, new RegExp(`^\\t${alias} "[^"\\n]+"\\n`), "", `import of ${alias}`);
    trimmed = replaceOnce(
      trimmed,
      new RegExp(
        `^\\t\\t"${name}":\\s+func\\(enc encryption\\.StateEncryption\\) backend\\.Backend \\{ return ${alias}\\.New\\(enc\\) \\},\\n`,
      ),
      "",
      `entry of the "${name}" backend`,
    );
  }
  const removed = Object.keys(LEFT_OUT_BACKENDS)
    .map(
      (name) =>
        `\t\t${JSON.stringify(name)}: \`The "${name}" backend is left out of this build of OpenTofu (cloudcost-pulumi's ` +
        "scripts/opentofu-backends.js: its tests keep state in the local backend). Use an official OpenTofu release for " +
        "remote state.`,\n",
    )
    .join("");
  return replaceOnce(trimmed, /^\tRemovedBackends = map\[string\]string\{\n/, (opening) => opening + removed, "RemovedBackends table");
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

/** Copies OpenTofu's module from MODULE_DIR (Go's module cache) to DEST, its backend table trimmed. */
function trimmedModuleCopy(moduleDir, dest) {
  cpSync(moduleDir, dest, { recursive: true });
  makeWritable(dest);
  const table = join(dest, BACKEND_TABLE);
  writeFileSync(table, trimBackendTable(readFileSync(table, "utf8")));
}

module.exports = { LEFT_OUT_BACKENDS, TrimError, trimBackendTable, trimmedModuleCopy };
