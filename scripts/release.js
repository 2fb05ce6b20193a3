#!/usr/bin/env node
"use strict";
/**
 * `npm run release [-- --out DIR] [--plugin-download-url URL] [--provider-platforms os/arch,...] [--publish]`: cuts a
 * release (RELEASING.md).
 *
 * Dry run by default: the versions and CHANGELOGs come from the changesets in a scratch clone (scripts/release/
 * version.js), every artifact is built into OUT (dist/release by default) with a CycloneDX SBOM each, the Terraform
 * provider's SHA256SUMS is signed with a key generated for the run, and OUT/release.json lists the artifacts with
 * their sizes and digests, the tags and the version patch. The working tree is left as it was.
 *
 * --publish: the same build, signed with CLOUDCOST_GPG_PRIVATE_KEY, then the version commit and tags in this
 * repository, npm and PyPI uploads, the push, and the GitHub release with the provider's files and plugin
 * tarballs. Refused unless every credential is in the environment (scripts/release/publish.js: CREDENTIALS).
 *
 * Needs a build (`npm run build`), go, python3, zip, gpg, and the Pulumi CLI of scripts/pulumi-cli.js.
 */
const { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } = require("node:fs");
const { join, resolve } = require("node:path");
const { parseArgs } = require("node:util");
const { REPO, run, log } = require("./release/common.js");
const { cutVersion } = require("./release/version.js");
const { releasePulumiPlugin } = require("./release/pulumi-plugin.js");
const { packNpm } = require("./release/npm.js");
const { buildPython } = require("./release/python.js");
const { releaseGoModules } = require("./release/go-modules.js");
const { releaseTerraformProvider, providerFiles, providerPlatforms } = require("./release/terraform-provider.js");
const { openSigner } = require("./release/gpg.js");
const { writeSboms } = require("./release/sbom.js");
const publish = require("./release/publish.js");

const { values } = parseArgs({
  options: {
    out: { type: "string", default: join(REPO, "dist", "release") },
    "provider-platforms": { type: "string" },
    "plugin-download-url": { type: "string" },
    publish: { type: "boolean", default: false },
    "keep-scratch": { type: "boolean", default: false },
  },
});

function main() {
  const began = Date.now();
  if (values.publish) {
    const missing = publish.missingCredentials();
    if (missing.length > 0) throw new Error(`--publish needs ${missing.join(", ")} in the environment (RELEASING.md)`);
    // A published release serves every platform the registry lists: a subset is for dry runs only.
    if (values["provider-platforms"]) throw new Error("--provider-platforms is for dry runs: --publish builds every platform");
  }
  const platforms = providerPlatforms(values["provider-platforms"]);
  const out = resolve(values.out);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // Inside the repository (gitignored .cache/), so that the SDK's build finds the repository's node_modules.
  const scratch = join(REPO, ".cache", "release", `scratch-${process.pid}`);
  const signer = openSigner({ privateKey: process.env.CLOUDCOST_GPG_PRIVATE_KEY, passphrase: process.env.CLOUDCOST_GPG_PASSPHRASE });
  let provider;
  try {
    const { version, previous, changed } = cutVersion(scratch);
    const release = { version, scratch, out, pluginDownloadURL: values["plugin-download-url"] };
    const plugin = releasePulumiPlugin(release);
    const npm = packNpm(release);
    const python = buildPython(release);
    const go = releaseGoModules(release);
    provider = releaseTerraformProvider({ ...release, signer, platforms });
    const sboms = writeSboms({
      ...release,
      npm,
      plugin,
      python,
      providerBinaries: provider.binaries,
      providerZip: providerFiles(version).zip,
      goModules: go.modules,
    });
    run("git", ["add", "--all"], { cwd: scratch });
    writeFileSync(join(out, `v${version}.patch`), run("git", ["diff", "--cached", "--binary"], { cwd: scratch }));
    const tags = [`v${version}`, ...go.modules.map((m) => m.tag)];
    const summary = {
      version,
      previous,
      dryRun: !values.publish,
      tags,
      changed,
      signingKey: { keyId: signer.keyId, ephemeral: signer.ephemeral, file: `terraform-provider-cloudcost_${version}_signing-key.asc` },
      pluginDownloadURL: JSON.parse(readFileSync(join(scratch, "native", "schema.json"), "utf8")).pluginDownloadURL,
      artifacts: [...npm.map(({ source: _source, ...a }) => a), ...python, ...go.artifacts, ...provider.artifacts, ...plugin],
      sboms,
      seconds: Math.round((Date.now() - began) / 1000),
    };
    writeFileSync(join(out, "release.json"), `${JSON.stringify(summary, null, 2)}\n`);
    if (values.publish) {
      publish.commitAndTag({ scratch, version, tags });
      publish.publishNpm({ out, tarballs: npm.map((a) => a.file) });
      publish.publishPypi({ out, files: python.map((a) => a.file) });
      const assets = readdirSync(out).filter((f) => /^(terraform-provider-cloudcost_|pulumi-resource-cloudcost-)/.test(f));
      publish.publishGithub({ out, version, assets });
    }
    for (const a of summary.artifacts) console.log(`${a.sha256}  ${String(a.bytes).padStart(10)}  ${a.file}`);
    log(`v${version} ${values.publish ? "published" : "built (dry run)"} into ${out} in ${summary.seconds} s; tags ${tags.join(" ")}`);
  } finally {
    provider?.cleanup();
    signer.close();
    if (!values["keep-scratch"]) rmSync(scratch, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`release: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
