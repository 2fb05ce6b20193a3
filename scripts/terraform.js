#!/usr/bin/env node
"use strict";
/**
 * The Terraform/OpenTofu provider's build, docs and tests (terraform-provider-cloudcost/):
 *
 *   node scripts/terraform.js test          builds OpenTofu (scripts/opentofu.js), checks gofmt, go vet and that
 *                                           docs/ is fresh, runs the unit tests, then the acceptance tests
 *                                           (TF_ACC=1, OpenTofu as the binary, a sandbox they start)  — npm run test:terraform
 *   node scripts/terraform.js docs          regenerates docs/ with tfplugindocs                      — npm run docs:terraform
 *   node scripts/terraform.js docs --check  fails when docs/ is not what tfplugindocs writes now
 *
 * tfplugindocs wants a Terraform binary to read the provider's schema; it is given OpenTofu's instead
 * (`tofu providers schema -json`, the provider installed through dev_overrides, no registry), through its
 * --providers-schema flag, so nothing is downloaded. The acceptance tests need `npm run build` first (they
 * start sandbox/dist/cli.js) and Node on the PATH.
 */
const { spawnSync } = require("node:child_process");
const { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join, relative } = require("node:path");
const { ensureOpenTofu } = require("./opentofu");

const REPO = join(__dirname, "..");
const MODULE = join(REPO, "terraform-provider-cloudcost");
/** The address the schema is keyed by in OpenTofu's output; tfplugindocs looks the short name up. */
const ADDRESS = "registry.opentofu.org/cloudcost/cloudcost";

class StepError extends Error {}

function run(command, args, { cwd = MODULE, env = {}, capture = false } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, GOWORK: "off", ...env },
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new StepError(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    const said = capture ? `\n${(result.stdout || "").trim()}\n${(result.stderr || "").trim()}`.trimEnd() : "";
    throw new StepError(`${command} ${args.join(" ")} failed (exit ${result.status})${said}`);
  }
  return capture ? result.stdout : "";
}

/** `tofu providers schema -json` of the provider built from this tree, keyed the way tfplugindocs looks it up. */
function providerSchema(tofu, work) {
  const bin = join(work, "bin");
  run("go", ["build", "-o", join(bin, "terraform-provider-cloudcost"), "."]);
  const rc = join(work, "tofurc");
  writeFileSync(
    rc,
    `provider_installation {\n  dev_overrides {\n    "cloudcost/cloudcost" = ${JSON.stringify(bin)}\n  }\n  direct {}\n}\n`,
  );
  const config = join(work, "config");
  run("mkdir", ["-p", config]);
  writeFileSync(
    join(config, "main.tf"),
    'terraform {\n  required_providers {\n    cloudcost = { source = "cloudcost/cloudcost" }\n  }\n}\n',
  );
  const out = run(tofu, ["providers", "schema", "-json"], {
    cwd: config,
    env: { TF_CLI_CONFIG_FILE: rc, TF_IN_AUTOMATION: "1" },
    capture: true,
  });
  const doc = JSON.parse(out.slice(out.indexOf("{")));
  const schema = doc.provider_schemas[ADDRESS];
  if (!schema) throw new StepError(`tofu providers schema -json has no ${ADDRESS}`);
  doc.provider_schemas = { cloudcost: schema };
  const file = join(work, "schema.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

function generateDocs(tofu, into) {
  const work = mkdtempSync(join(tmpdir(), "cloudcost-tfdocs-"));
  try {
    const schema = providerSchema(tofu, work);
    run(
      "go",
      [
        "tool",
        "tfplugindocs",
        "generate",
        "--provider-name",
        "cloudcost",
        "--rendered-provider-name",
        "Cloud Cost",
        "--providers-schema",
        schema,
        "--rendered-website-dir",
        into,
      ],
      { capture: true },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every file under dir, relative, sorted. */
function files(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name), base) : [relative(base, join(dir, name))]))
    .sort();
}

function checkDocs(tofu) {
  const fresh = mkdtempSync(join(MODULE, ".docs-check-"));
  try {
    generateDocs(tofu, relative(MODULE, fresh));
    const committed = join(MODULE, "docs");
    const want = files(fresh);
    const have = files(committed);
    const stale = [...new Set([...want, ...have])].filter(
      (f) => !want.includes(f) || !have.includes(f) || readFileSync(join(fresh, f), "utf8") !== readFileSync(join(committed, f), "utf8"),
    );
    if (stale.length > 0)
      throw new StepError(
        `terraform-provider-cloudcost/docs is stale (${stale.join(", ")}): run \`npm run docs:terraform\` and commit docs/`,
      );
    console.log("docs/ is fresh");
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

function test(tofu) {
  const unformatted = run("gofmt", ["-l", "."], { capture: true }).trim();
  if (unformatted) throw new StepError(`gofmt: not formatted:\n${unformatted}`);
  run("go", ["vet", "./..."]);
  checkDocs(tofu);
  // -vet=off: `go vet` above ran every analyzer; `go test` would run its subset again (another cold analysis pass).
  run("go", ["test", "-count=1", "-vet=off", "./..."]);
  // The acceptance tests' bound guards against a hang, not their speed: ~10 minutes beside issue 39's flake hunt, whose
  // engine files ran three times slower when more work shared the machine; 30 minutes was too close.
  run("go", ["test", "-count=1", "-vet=off", "-timeout", "60m", "./..."], {
    env: { TF_ACC: "1", TF_ACC_TERRAFORM_PATH: tofu },
  });
}

function main() {
  const [command, ...flags] = process.argv.slice(2);
  if (command !== "test" && command !== "docs") {
    console.error("usage: node scripts/terraform.js test | docs [--check]");
    process.exitCode = 2;
    return;
  }
  try {
    const tofu = ensureOpenTofu();
    if (command === "docs" && flags.includes("--check")) checkDocs(tofu);
    else if (command === "docs") {
      generateDocs(tofu, "docs");
      console.log("wrote terraform-provider-cloudcost/docs");
    } else test(tofu);
  } catch (err) {
    console.error(err instanceof StepError ? `scripts/terraform.js: ${err.message}` : err);
    process.exitCode = 1;
  }
}

main();
