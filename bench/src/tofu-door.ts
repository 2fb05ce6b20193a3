import { execFile, execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command, Door } from "./doors";
import { REPO } from "./engine-support";

/**
 * The `tofu` door of area `doors` (issue 32): the same resources as bench/programs/many (a third each groups,
 * alerts on them and reports on them, with the same inputs and dependencies) as an OpenTofu configuration on
 * the Terraform provider (terraform-provider-cloudcost), run by the real OpenTofu CLI (scripts/opentofu.js).
 *
 * Offline: the provider is built once per run and installed through a CLI configuration with `dev_overrides`
 * (as scripts/terraform.js does), so no `tofu init` and no registry; TF_CLI_CONFIG_FILE names that file (the
 * machine's own may point at a missing file, which makes tofu print a warning).
 *
 * The commands beside Pulumi's: `up` is `tofu apply`, `plan` is `tofu plan` (right after apply: it must
 * propose nothing), `refresh` is `tofu plan -refresh-only` (it reads every
 * resource and writes no state: what a drift check costs), `destroy` is `tofu destroy` (which, by OpenTofu's
 * default, reads every resource before it plans the deletes). Each at OpenTofu's default parallelism (10).
 *
 * Provider CPU: tofu starts the provider several times per command (to validate, to plan, to apply), each a
 * Go process no Node probe can see. The provider path is a bash wrapper that runs the real binary, then writes
 * its child's CPU (`times`: the rusage of the children it waited for) to a file; every start leaves a marker
 * first, so a provider that ended without its figure (killed) fails the bench instead of being counted as 0.
 */

/** The configuration: counts and names mirror bench/programs/many (team t: a group, `… budget`, `… daily`). */
const MAIN_TF = `terraform {
  required_providers {
    cloudcost = { source = "cloudcost/cloudcost" }
  }
}

# api_url and api_token come from CLOUDCOST_API_URL and CLOUDCOST_API_TOKEN.
provider "cloudcost" {}

variable "prefix" { type = string }
variable "groups" { type = number }
variable "alerts" { type = number }
variable "reports" { type = number }

resource "cloudcost_cloud_group" "team" {
  count = var.groups
  name  = "\${var.prefix} team \${count.index}"
  # Every other group has a member account (the sandbox's demo organization has 111122223333).
  aws_account_ids = count.index % 2 == 0 ? ["111122223333"] : null
}

resource "cloudcost_budget_alert" "budget" {
  count      = var.alerts
  name       = "\${var.prefix} team \${count.index} budget"
  group_id   = cloudcost_cloud_group.team[count.index].id
  amount     = 100 + count.index
  recipients = ["finops@example.com"]
  # Required here; the Pulumi resources default to this one threshold.
  thresholds = [{ percent = 100, basis = "actual" }]
}

resource "cloudcost_scheduled_report" "daily" {
  count      = var.reports
  name       = "\${var.prefix} team \${count.index} daily"
  report     = "summary"
  group_id   = cloudcost_cloud_group.team[count.index].id
  schedule   = { frequency = "daily", time = "09:00", timezone = "UTC" }
  recipients = ["finops@example.com"]
}
`;

/** What the door needs once per run: tofu, the CLI configuration installing the provider, the CPU folder. */
export interface TofuTools {
  tofu: string;
  cliConfig: string;
  cpuDir: string;
}

/** Builds the provider into WORK, writes its wrapper and the CLI configuration; finds (or builds) tofu. */
export function prepareTofu(work: string): TofuTools {
  const out = execFileSync(process.execPath, [join(REPO, "scripts", "opentofu.js"), "--print-bin"], { encoding: "utf8" });
  const tofu = out.trim().split("\n").pop()!;
  const real = join(work, "provider", "terraform-provider-cloudcost");
  execFileSync("go", ["build", "-o", real, "."], {
    cwd: join(REPO, "terraform-provider-cloudcost"),
    env: { ...process.env, GOWORK: "off" },
    stdio: "pipe",
  });
  const cpuDir = join(work, "tofu-cpu");
  const overrides = join(work, "overrides");
  mkdirSync(cpuDir);
  mkdirSync(overrides);
  const wrapper = join(overrides, "terraform-provider-cloudcost");
  // `times` prints the shell's own CPU, then its waited-for children's: the provider's (m/s format, ms digits).
  writeFileSync(
    wrapper,
    `#!/bin/bash\n: > ${JSON.stringify(cpuDir)}/$$.start\n${JSON.stringify(real)} "$@"\nstatus=$?\ntimes > ${JSON.stringify(cpuDir)}/$$.cpu\nexit $status\n`,
  );
  chmodSync(wrapper, 0o755);
  const cliConfig = join(work, "tofurc");
  writeFileSync(
    cliConfig,
    `provider_installation {\n  dev_overrides {\n    "cloudcost/cloudcost" = ${JSON.stringify(overrides)}\n  }\n  direct {}\n}\n`,
  );
  return { tofu, cliConfig, cpuDir };
}

/** `0m1.234s` → 1234 (ms). */
function parseTimes(field: string): number {
  const found = /^(\d+)m([\d.]+)s$/.exec(field);
  if (!found) throw new Error(`unexpected \`times\` field ${JSON.stringify(field)}`);
  return Number(found[1]) * 60_000 + Number(found[2]) * 1000;
}

/** The provider processes' CPU since the last call (and removes the files): ms, and how many processes. */
function takeProviderCpu(cpuDir: string, what: string): { ms: number; processes: number } {
  const files = readdirSync(cpuDir);
  const started = files.filter((f) => f.endsWith(".start")).length;
  let ms = 0;
  let processes = 0;
  for (const file of files.filter((f) => f.endsWith(".cpu"))) {
    const children = readFileSync(join(cpuDir, file), "utf8").trim().split("\n")[1]?.trim().split(/\s+/) ?? [];
    if (children.length !== 2) throw new Error(`${what}: provider CPU file ${file} is not two lines of \`times\``);
    ms += parseTimes(children[0]!) + parseTimes(children[1]!);
    processes++;
  }
  for (const file of files) rmSync(join(cpuDir, file));
  if (processes === 0 || processes !== started)
    throw new Error(`${what}: ${started} provider processes started, ${processes} reported their CPU`);
  return { ms, processes };
}

const ARGS: Record<Command, string[]> = {
  up: ["apply", "-auto-approve"],
  // A plan right after apply (it refreshes, then diffs): exit 2 would mean it proposes changes, which fails the bench.
  plan: ["plan", "-detailed-exitcode"],
  // Exit 2 would mean the refresh found drift right after apply: a provider defect, so the bench fails on it.
  refresh: ["plan", "-refresh-only", "-detailed-exitcode"],
  destroy: ["destroy", "-auto-approve"],
};

/** The command line each bench command runs, for the results. */
export const TOFU_COMMANDS: Record<Command, string> = {
  up: `tofu ${ARGS.up.join(" ")}`,
  plan: `tofu ${ARGS.plan.join(" ")}`,
  refresh: `tofu ${ARGS.refresh.join(" ")}`,
  destroy: `tofu ${ARGS.destroy.join(" ")}`,
};

/** A hang guard, not a measurement: a 500-resource apply on a loaded 2-core machine takes minutes. */
const COMMAND_TIMEOUT_MS = 30 * 60_000;

/** The door: a configuration folder per size, its state in terraform.tfstate there. */
export const tofuDoor: Door = {
  name: "tofu",
  commands: TOFU_COMMANDS,
  async open(n, ctx) {
    const tools = ctx.tofu;
    const dir = mkdtempSync(join(tmpdir(), "cloudcost-bench-tofu-"));
    writeFileSync(join(dir, "main.tf"), MAIN_TF);
    // Resource i is a group when i % 3 == 0, an alert when 1, a report when 2 (bench/programs/many).
    const counts = { groups: Math.ceil(n / 3), alerts: Math.floor((n + 1) / 3), reports: Math.floor(n / 3) };
    writeFileSync(
      join(dir, "bench.auto.tfvars"),
      `prefix = "tofu"\ngroups = ${counts.groups}\nalerts = ${counts.alerts}\nreports = ${counts.reports}\n`,
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TF_CLI_CONFIG_FILE: tools.cliConfig,
      TF_IN_AUTOMATION: "1",
      CLOUDCOST_API_URL: ctx.sandboxUrl,
      CLOUDCOST_API_TOKEN: ctx.token,
    };
    const tofu = (args: string[]): Promise<void> =>
      new Promise((resolve, reject) => {
        execFile(
          tools.tofu,
          [...args, "-input=false", "-no-color"],
          { cwd: dir, env, maxBuffer: 256 * 1024 * 1024, timeout: COMMAND_TIMEOUT_MS },
          (err, stdout, stderr) => {
            if (err) reject(new Error(`tofu ${args.join(" ")} (${n} resources) failed\n${stdout}\n${stderr}`, { cause: err }));
            else resolve();
          },
        );
      });
    return {
      async run(command: Command) {
        clearProviderCpu(tools.cpuDir);
        await tofu(ARGS[command]);
        const cpu = takeProviderCpu(tools.cpuDir, `${TOFU_COMMANDS[command]} (${n} resources)`);
        return { providerCpuMs: cpu.ms, providerProcesses: cpu.processes };
      },
      async state() {
        const text = readFileSync(join(dir, "terraform.tfstate"), "utf8");
        const parsed = JSON.parse(text) as { resources?: { mode: string; instances: unknown[] }[] };
        const resources = (parsed.resources ?? []).filter((r) => r.mode === "managed").reduce((a, r) => a + r.instances.length, 0);
        return { bytes: Buffer.byteLength(text), resources };
      },
      async remove() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/** Clears what an earlier command may have left (nothing, normally): a command counts only its own processes. */
function clearProviderCpu(cpuDir: string): void {
  for (const file of readdirSync(cpuDir)) rmSync(join(cpuDir, file));
}
