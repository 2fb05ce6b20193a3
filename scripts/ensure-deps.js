#!/usr/bin/env node
"use strict";
/**
 * `npm test` and `npm run demo` start here: `node scripts/ensure-deps.js [COMMAND ARGS...]` makes them
 * work right after cloning, with nothing installed, then runs COMMAND.
 *
 * 1. A supported Node: this one when it is 22 or newer; on an older one (Node 20 is what fresh machines
 *    here have), Node `.nvmrc` from the npm registry, cached in `.cache/node/` (scripts/supported-node.js),
 *    said in one line. COMMAND and the install then run on it (its `bin/` first on PATH).
 * 2. The locked dependencies, installed with `npm ci` (exactly the lockfile, which lists every platform's
 *    optional binaries) only when `node_modules` is missing or older than `package-lock.json`; otherwise
 *    nothing happens.
 *
 * Plain JavaScript with no dependencies: it runs before any exist.
 */
const { spawnSync } = require("node:child_process");
const { existsSync, statSync } = require("node:fs");
const { delimiter, join } = require("node:path");
const { constants } = require("node:os");
const { supportedNode } = require("./supported-node");

const root = join(__dirname, "..");
const lockfile = join(root, "package-lock.json");
// npm writes this "hidden lockfile" after every successful install into node_modules.
const installed = join(root, "node_modules", ".package-lock.json");

function isUpToDate() {
  return existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockfile).mtimeMs;
}

/**
 * The environment for npm and COMMAND: the chosen Node first on PATH, and native builds (node-gyp)
 * against that Node's own headers. A caller's `npm_config_nodedir` is kept while its Node is the one used.
 */
function environmentFor(node) {
  const env = { ...process.env };
  if (node.fetched) env.PATH = `${node.bin}${delimiter}${env.PATH ?? ""}`;
  const hasHeaders = existsSync(join(node.home, "include", "node", "node.h"));
  if (hasHeaders && (node.fetched || !env.npm_config_nodedir)) env.npm_config_nodedir = node.home;
  return env;
}

/** Runs a command to its end; returns its exit status (128 + n for a death by signal n, as a shell does). */
function run(command, args, env) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit", shell: process.platform === "win32" });
  if (result.error) {
    console.error(`${command} could not be started: ${result.error.message}`);
    return 1;
  }
  if (result.signal) return 128 + (constants.signals[result.signal] ?? 0);
  return result.status ?? 1;
}

function main() {
  let node;
  try {
    node = supportedNode();
  } catch (err) {
    console.error(err.message);
    return 1;
  }
  const env = environmentFor(node);
  if (!isUpToDate()) {
    console.log("Installing dependencies (npm ci, the locked versions) ...");
    const status = run("npm", ["ci", "--no-audit", "--no-fund"], env);
    if (status !== 0) {
      console.error("npm ci failed; see the output above.");
      return status;
    }
  }
  const [command, ...args] = process.argv.slice(2);
  return command === undefined ? 0 : run(command, args, env);
}

process.exitCode = main();
