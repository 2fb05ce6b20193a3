"use strict";
/** What every release step shares: the repository's root, running a command, and an artifact's size and digest. */
const { spawnSync } = require("node:child_process");
const { createHash } = require("node:crypto");
const { readFileSync, statSync } = require("node:fs");
const { basename, join } = require("node:path");

const REPO = join(__dirname, "..", "..");

/**
 * Runs COMMAND with ARGS and returns its stdout; throws with its output when it fails. Output is captured, not
 * inherited, so a failure's message carries it (and no secret passed in the environment is echoed by us).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, input?: string | Buffer, timeoutMs?: number }} [options]
 * @returns {string}
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? REPO,
    env: options.env ?? process.env,
    input: options.input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: options.timeoutMs ?? 30 * 60_000,
  });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    throw new Error(`${command} ${args.join(" ")} failed (${why}) in ${options.cwd ?? REPO}:\n${result.stdout}${result.stderr}`, {
      cause: result.error,
    });
  }
  return result.stdout;
}

/** @param {string} file @returns {string} the file's SHA-256, hex */
function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/**
 * @typedef {{ file: string, kind: string, bytes: number, sha256: string }} Artifact
 * @param {string} file @param {string} kind @returns {Artifact}
 */
function artifact(file, kind) {
  return { file: basename(file), kind, bytes: statSync(file).size, sha256: sha256(file) };
}

/** A child environment without the npm_* variables of an `npm run` that started us (they would redirect nested npm calls). */
function cleanEnv(extra = {}) {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))), ...extra };
}

function log(message) {
  process.stderr.write(`release: ${message}\n`);
}

module.exports = { REPO, run, sha256, artifact, cleanEnv, log };
