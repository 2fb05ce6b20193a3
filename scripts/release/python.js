"use strict";
/**
 * The Python SDK's sdist and wheel, built by PyPA's `build` from the SDK the release regenerated (scratch/sdk/python),
 * in a virtual environment of the release's own tools (pinned: build, twine for the upload, cyclonedx-bom for the
 * SBOM), kept in .cache/release/python-tools between runs.
 */
const { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { REPO, run, artifact, log } = require("./common.js");

/** The release's Python tools, one pinned version each; the venv is rebuilt when this list changes. */
const TOOLS = ["build==1.6.1", "twine==7.0.0", "cyclonedx-bom==7.5.0"];
const TOOLS_DIR = join(REPO, ".cache", "release", "python-tools");

/** The tools' virtual environment, created on first use; returns its bin folder. */
function pythonTools() {
  const stamp = join(TOOLS_DIR, "tools.txt");
  const bin = join(TOOLS_DIR, "bin");
  if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== TOOLS.join("\n")) {
    log(`python tools: ${TOOLS.join(" ")}`);
    rmSync(TOOLS_DIR, { recursive: true, force: true });
    run("python3", ["-m", "venv", TOOLS_DIR]);
    run(join(bin, "pip"), ["install", "--quiet", "--disable-pip-version-check", ...TOOLS]);
    writeFileSync(stamp, TOOLS.join("\n"));
  }
  return bin;
}

/**
 * @param {{ scratch: string, out: string }} release
 * @returns {import("./common.js").Artifact[]}
 */
function buildPython({ scratch, out }) {
  const bin = pythonTools();
  const dist = join(scratch, ".python-dist");
  mkdirSync(dist, { recursive: true });
  // build's isolated environment gets setuptools from the index pip is configured with.
  run(join(bin, "python"), ["-m", "build", "--sdist", "--wheel", "--outdir", dist, join(scratch, "sdk", "python")]);
  const built = readdirSync(dist).sort();
  for (const file of built) copyFileSync(join(dist, file), join(out, file));
  return built.map((file) => artifact(join(out, file), "pypi"));
}

module.exports = { buildPython, pythonTools };
