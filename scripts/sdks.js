#!/usr/bin/env node
"use strict";
/**
 * Regenerates sdk/nodejs, sdk/python and sdk/go from native/schema.json with `pulumi package gen-sdk` (the CLI and
 * language hosts scripts/pulumi-cli.js builds), offline, in a throwaway PULUMI_HOME. test/engine/sdks-fresh.test.ts
 * fails when the committed SDKs are not what this writes. One change after gen-sdk: sdk/nodejs/package.json gets
 * its entry points (scripts/sdk-nodejs-manifest.js).
 *
 *   npm run sdks        (after `npm run build` and `npm run schema -w native` when the contract changed)
 */
const { spawnSync } = require("node:child_process");
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { delimiter, join } = require("node:path");
const { ensurePulumiCli } = require("./pulumi-cli.js");
const { addEntryPoints } = require("./sdk-nodejs-manifest.js");

const REPO = join(__dirname, "..");
const LANGUAGES = ["nodejs", "python", "go"];

/**
 * Writes the three SDKs of SCHEMA (a package schema file) into OUT (sdk/ by default; the release writes them into
 * its staging folder from the schema it cuts: scripts/release/pulumi-plugin.js). Returns false when gen-sdk failed.
 * @param {{ schema?: string, out?: string, stdio?: "inherit" | "pipe" }} [options]
 */
function generateSdks({ schema = join(REPO, "native", "schema.json"), out = join(REPO, "sdk"), stdio = "inherit" } = {}) {
  const bin = ensurePulumiCli();
  const home = mkdtempSync(join(tmpdir(), "cloudcost-sdks-home-"));
  try {
    for (const language of LANGUAGES) {
      const result = spawnSync("pulumi", ["package", "gen-sdk", schema, "--language", language, "--out", out, "--non-interactive"], {
        cwd: REPO,
        stdio,
        encoding: "utf8",
        env: {
          ...process.env,
          PATH: `${bin}${delimiter}${process.env.PATH}`,
          PULUMI_HOME: home,
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
        },
      });
      if (result.status !== 0) {
        console.error(
          `scripts/sdks.js: pulumi package gen-sdk --language ${language} failed${stdio === "pipe" ? `:\n${result.stdout}${result.stderr}` : ""}`,
        );
        return false;
      }
      if (language === "nodejs") addEntryPoints(join(out, "nodejs", "package.json"));
    }
    return true;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

module.exports = { generateSdks };

if (require.main === module && !generateSdks()) process.exitCode = 1;
