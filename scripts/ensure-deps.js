#!/usr/bin/env node
"use strict";
/**
 * `predemo` / `pretest`: makes `npm run demo` and `npm test` work right after cloning, with nothing
 * installed. Installs the locked versions only when `node_modules` is missing or older than
 * `package-lock.json`; otherwise it returns at once. Plain JavaScript with no dependencies: it runs
 * before any exist. `npm install` rather than `npm ci`: npm records only the platform-specific optional
 * binaries (@swc/core-*, …) that the registry it used serves, and `npm ci`'s lockfile check then
 * rejects the lock on any registry or platform that differs (npm/cli#4828, #8805); `npm install` installs
 * the same locked versions and adds what the current platform needs.
 */
const { spawnSync } = require("node:child_process");
const { existsSync, statSync } = require("node:fs");
const { join } = require("node:path");

const root = join(__dirname, "..");
const lockfile = join(root, "package-lock.json");
// npm writes this "hidden lockfile" after every successful install into node_modules.
const installed = join(root, "node_modules", ".package-lock.json");

function isUpToDate() {
  return existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockfile).mtimeMs;
}

/** better-sqlite3 builds from source against Node's headers; Debian's nodejs ships them in /usr. */
function installEnv() {
  const env = { ...process.env };
  if (!env.npm_config_nodedir && existsSync("/usr/include/node/node.h")) env.npm_config_nodedir = "/usr";
  return env;
}

if (!isUpToDate()) {
  console.log("Installing dependencies (npm install, locked versions) ...");
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund"], {
    cwd: root,
    env: installEnv(),
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    console.error("npm install failed; see the output above.");
    process.exit(result.status ?? 1);
  }
}
