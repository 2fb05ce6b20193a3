"use strict";
/**
 * The Terraform/OpenTofu provider as a provider registry serves it (developer.hashicorp.com/terraform/registry/
 * providers/publishing, and OpenTofu's getproviders: registry_client.go, package_authentication.go):
 *
 *   terraform-provider-cloudcost_<ver>_<os>_<arch>.zip   the binary terraform-provider-cloudcost_v<ver>[.exe] at its root
 *   terraform-provider-cloudcost_<ver>_manifest.json     the registry manifest: plugin protocol 6.0
 *   terraform-provider-cloudcost_<ver>_SHA256SUMS        `<sha256>  <file>` for each zip and the manifest
 *   terraform-provider-cloudcost_<ver>_SHA256SUMS.sig    a binary detached OpenPGP signature of SHA256SUMS
 *
 * `tofu init` checks the zip against the registry's `shasum`, that hash against SHA256SUMS, and SHA256SUMS's
 * signature against the registry's `signing_keys` (test/release/terraform-registry.test.ts proves all three).
 * Each binary is cross-compiled by `go build` (CGO off) with scripts/go-build.js's flags and -ldflags "-s -w" (no
 * symbol tables: a third of the size, and less to link) and the version stamped into main.version.
 */
const { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { run, artifact, sha256, cleanEnv, log } = require("./common.js");
const { LEAN_BUILD_FLAGS } = require("../go-build.js");

const NAME = "terraform-provider-cloudcost";
/** The platforms a release builds: the registry lists them in `versions`. */
const PLATFORMS = ["linux", "darwin", "windows"].flatMap((os) => ["amd64", "arm64"].map((arch) => ({ os, arch })));
/**
 * The platforms of a dry run: every one, or those a comma-separated "os/arch" list names (each one of PLATFORMS).
 * CI builds one per operating system (.ci/run): each further one is another cold compile of every package.
 */
function providerPlatforms(list) {
  if (!list) return PLATFORMS;
  return list.split(",").map((entry) => {
    const found = PLATFORMS.find(({ os, arch }) => `${os}/${arch}` === entry.trim());
    if (!found)
      throw new Error(`--provider-platforms: ${entry} is not one of ${PLATFORMS.map(({ os, arch }) => `${os}/${arch}`).join(", ")}`);
    return found;
  });
}

/** The committed registry manifest (the provider's plugin protocol), copied into each release. */
const MANIFEST = "terraform-registry-manifest.json";

/** The file names of a release VERSION (no `v`). */
const providerFiles = (version) => ({
  zip: (os, arch) => `${NAME}_${version}_${os}_${arch}.zip`,
  binary: (os) => `${NAME}_v${version}${os === "windows" ? ".exe" : ""}`,
  manifest: `${NAME}_${version}_manifest.json`,
  sums: `${NAME}_${version}_SHA256SUMS`,
});

/**
 * @param {{ scratch: string, out: string, version: string, signer: import("./gpg.js").Signer, platforms?: {os: string, arch: string}[] }} release
 * @returns {{ artifacts: import("./common.js").Artifact[], binaries: { os: string, arch: string, file: string }[], cleanup(): void }}
 */
function releaseTerraformProvider({ scratch, out, version, signer, platforms = PLATFORMS }) {
  const source = join(scratch, NAME);
  const names = providerFiles(version);
  const work = mkdtempSync(join(tmpdir(), `${NAME}-build-`));
  const binaries = [];
  const zips = [];
  for (const { os, arch } of platforms) {
    const began = Date.now();
    const dir = join(work, `${os}_${arch}`);
    mkdirSync(dir);
    const binary = join(dir, names.binary(os));
    run("go", ["build", ...LEAN_BUILD_FLAGS, "-ldflags", `-s -w -X main.version=${version}`, "-o", binary, "."], {
      cwd: source,
      env: cleanEnv({ GOOS: os, GOARCH: arch, CGO_ENABLED: "0", GOWORK: "off", GOFLAGS: "-buildvcs=false" }),
    });
    const zip = join(out, names.zip(os, arch));
    rmSync(zip, { force: true });
    run("zip", ["-q", "-j", "-X", zip, binary]);
    binaries.push({ os, arch, file: binary });
    zips.push(zip);
    log(`${names.zip(os, arch)} (${Math.round((Date.now() - began) / 1000)} s)`);
  }
  const manifest = join(out, names.manifest);
  cpSync(join(source, MANIFEST), manifest);
  const sums = join(out, names.sums);
  writeFileSync(sums, [...zips, manifest].map((file) => `${sha256(file)}  ${file.slice(out.length + 1)}\n`).join(""));
  const signature = signer.sign(sums);
  writeFileSync(join(out, `${NAME}_${version}_signing-key.asc`), signer.armoredPublicKey);
  return {
    artifacts: [
      ...zips.map((z) => artifact(z, "terraform-provider")),
      artifact(manifest, "terraform-manifest"),
      artifact(sums, "terraform-sums"),
      artifact(signature, "terraform-signature"),
    ],
    binaries,
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}

/** The protocol versions the committed manifest declares. */
function protocolVersions(root) {
  return /** @type {{ metadata: { protocol_versions: string[] } }} */ (JSON.parse(readFileSync(join(root, NAME, MANIFEST), "utf8")))
    .metadata.protocol_versions;
}

module.exports = { releaseTerraformProvider, providerFiles, providerPlatforms, protocolVersions, PLATFORMS, NAME };
