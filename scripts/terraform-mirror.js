#!/usr/bin/env node
"use strict";
/**
 * Installs terraform-provider-cloudcost (this repository's Go module) into a local filesystem mirror, the way
 * OpenTofu and Terraform install any provider without a registry, and writes a CLI configuration that uses it:
 *
 *   .cache/terraform-mirror/registry.opentofu.org/cloudcost/cloudcost/<version>/<os>_<arch>/terraform-provider-cloudcost_v<version>
 *   .cache/terraform-mirror/cloudcost.tofurc     provider_installation { filesystem_mirror { … } }
 *
 *   node scripts/terraform-mirror.js          builds and prints the CLI configuration's path as the last line
 *   export TF_CLI_CONFIG_FILE=$(node scripts/terraform-mirror.js | tail -1)
 *
 * The CLI configuration names only the mirror, so `tofu init` installs `cloudcost/cloudcost` from it and asks
 * no registry for anything (a configuration that needs other providers adds `direct {}` beside it: README,
 * "Terraform and OpenTofu"). The binary is rebuilt every run (Go's build cache makes that seconds), so the
 * mirror always holds the working tree's provider; `tofu init` records its hash in `.terraform.lock.hcl`.
 *
 * Plain JavaScript with no dependencies: it may run before `npm ci`.
 */
const { spawnSync } = require("node:child_process");
const { mkdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const REPO = join(__dirname, "..");
/** The version the mirror serves; configurations ask for `cloudcost/cloudcost` without a constraint or with `~> 0.1`. */
const VERSION = "0.1.0";
const ADDRESS = "registry.opentofu.org/cloudcost/cloudcost";
const MIRROR = join(REPO, ".cache", "terraform-mirror");

function goEnv(name) {
  const result = spawnSync("go", ["env", name], { encoding: "utf8" });
  if (result.error || result.status !== 0)
    throw new Error(`\`go env ${name}\` failed: is Go 1.26 on the PATH? ${result.stderr ?? result.error}`);
  return result.stdout.trim();
}

const platform = `${goEnv("GOOS")}_${goEnv("GOARCH")}`;
const folder = join(MIRROR, ADDRESS, VERSION, platform);
mkdirSync(folder, { recursive: true });
const build = spawnSync(
  "go",
  ["build", "-trimpath", "-ldflags", `-X main.version=${VERSION}`, "-o", join(folder, `terraform-provider-cloudcost_v${VERSION}`), "."],
  { cwd: join(REPO, "terraform-provider-cloudcost"), stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, GOWORK: "off" } },
);
if (build.status !== 0) {
  console.error("terraform-mirror: building terraform-provider-cloudcost failed (see above)");
  process.exit(1);
}
const config = join(MIRROR, "cloudcost.tofurc");
writeFileSync(
  config,
  `# Written by scripts/terraform-mirror.js: install cloudcost/cloudcost from the local mirror, nothing from a registry.
provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(MIRROR)}
    include = [${JSON.stringify(ADDRESS)}]
  }
}
`,
);
console.log(`terraform-provider-cloudcost ${VERSION} (${platform}) in the filesystem mirror ${MIRROR}`);
console.log(config);
