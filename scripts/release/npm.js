"use strict";
/**
 * The npm tarballs: every public workspace (`private` unset: @cloudcost/api, sandbox, pulumi, policies) and the
 * native SDK @cloudcost/pulumi-native (sdk/nodejs, not a workspace). Each is packed by `npm pack` in the scratch
 * clone, where its package.json and CHANGELOG.md carry the release's version, with the compiled output copied in
 * from the repository's build (`npm run build` before; `--ignore-scripts`, as that build is the one tested).
 */
const { cpSync, existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { REPO, run, artifact, cleanEnv } = require("./common.js");

/** The root package.json's workspaces that npm publishes. */
function publicWorkspaces() {
  const { workspaces } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  return /** @type {string[]} */ (workspaces).filter((dir) => !JSON.parse(readFileSync(join(REPO, dir, "package.json"), "utf8")).private);
}

/**
 * @param {{ scratch: string, out: string }} release
 * @returns {(import("./common.js").Artifact & { source: string })[]} each with the folder it was packed from
 */
function packNpm({ scratch, out }) {
  const env = cleanEnv({ npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" });
  const packed = [];
  for (const dir of publicWorkspaces()) {
    if (existsSync(join(REPO, dir, "dist"))) cpSync(join(REPO, dir, "dist"), join(scratch, dir, "dist"), { recursive: true });
    packed.push({ ...artifact(join(out, pack(join(scratch, dir), out, env)), "npm"), source: dir });
  }
  // The SDK's own build (tsc into bin/, its manifest beside it), as its package.json says.
  const sdk = join(scratch, "sdk", "nodejs");
  run("npm", ["run", "build"], { cwd: sdk, env });
  packed.push({ ...artifact(join(out, pack(sdk, out, env)), "npm"), source: "sdk/nodejs" });
  return packed;
}

/** `npm pack` of DIR into OUT; returns the tarball's name. */
function pack(dir, out, env) {
  const [result] = JSON.parse(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], { cwd: dir, env }));
  return result.filename;
}

module.exports = { packNpm, publicWorkspaces };
