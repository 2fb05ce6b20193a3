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

const bin = ensurePulumiCli();
const home = mkdtempSync(join(tmpdir(), "cloudcost-sdks-home-"));
try {
  for (const language of LANGUAGES) {
    const result = spawnSync(
      "pulumi",
      ["package", "gen-sdk", join(REPO, "native", "schema.json"), "--language", language, "--out", join(REPO, "sdk"), "--non-interactive"],
      {
        cwd: REPO,
        stdio: "inherit",
        env: {
          ...process.env,
          PATH: `${bin}${delimiter}${process.env.PATH}`,
          PULUMI_HOME: home,
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
        },
      },
    );
    if (result.status !== 0) {
      console.error(`scripts/sdks.js: pulumi package gen-sdk --language ${language} failed`);
      process.exitCode = 1;
      break;
    }
    if (language === "nodejs") addEntryPoints(join(REPO, "sdk", "nodejs", "package.json"));
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
