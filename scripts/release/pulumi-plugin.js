"use strict";
/**
 * The native Pulumi plugin and its SDKs at the release's version. In the scratch clone: native/schema.json written
 * with the version and the plugin download URL (the committed one names the project's release location with
 * `${VERSION}`; a test or a mirror passes its own), then the three SDKs regenerated from it by `pulumi package
 * gen-sdk` (scripts/sdks.js), so the SDKs a user installs name that URL and the engine fetches the plugin from there.
 * The plugin tarballs come from native/scripts/package.mjs, one per platform, named as the engine asks for them:
 * pulumi-resource-cloudcost-v<version>-<os>-<arch>.tar.gz.
 */
const { readdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { REPO, run, artifact, log } = require("./common.js");
const { generateSdks } = require("../sdks.js");

/**
 * @param {{ version: string, scratch: string, out: string, pluginDownloadURL?: string }} release
 * @returns {import("./common.js").Artifact[]}
 */
function releasePulumiPlugin({ version, scratch, out, pluginDownloadURL }) {
  const { schemaText, SCHEMA_FILE } = require(join(REPO, "native", "dist", "schema", "write.js"));
  const schema = join(scratch, "native", "schema.json");
  writeFileSync(schema, pluginDownloadURL ? schemaText(version, pluginDownloadURL) : schemaText(version));
  log(`schema ${version}${pluginDownloadURL ? ` downloading from ${pluginDownloadURL}` : ""} (committed: ${SCHEMA_FILE})`);
  if (!generateSdks({ schema, out: join(scratch, "sdk"), stdio: "pipe" })) throw new Error("pulumi package gen-sdk failed");
  const before = new Set(readdirSync(out));
  run(process.execPath, [join(REPO, "native", "scripts", "package.mjs"), "--out", out, "--version", version, "--schema", schema]);
  return readdirSync(out)
    .filter((f) => !before.has(f) && f.endsWith(".tar.gz"))
    .sort()
    .map((f) => artifact(join(out, f), "pulumi-plugin"));
}

module.exports = { releasePulumiPlugin };
