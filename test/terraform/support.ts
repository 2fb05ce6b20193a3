/**
 * What the Terraform suites share (test/terraform, run with CLOUDCOST_TERRAFORM=1; `.ci/run`'s terraform cell):
 * the real OpenTofu CLI (`node scripts/opentofu.js`), terraform-provider-cloudcost installed from the local
 * filesystem mirror (`node scripts/terraform-mirror.js`, the README's install), a sandbox, and `tofu` run in a
 * copy of a configuration folder with the CLI configuration naming only that mirror: no registry is asked.
 */
import { execFile, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CloudCostClient } from "@cloudcost/api";
import { type RunningSandbox, holdSandboxDay, killedByBound, startSandbox } from "@cloudcost/testkit";

export const REPO = join(__dirname, "..", "..");

export interface TofuResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The last line a script prints (the path it was asked for); throws with its output when it fails. */
export function lastLine(script: string, args: string[] = []): string {
  const r = spawnSync(process.execPath, [join(REPO, "scripts", script), ...args], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`node scripts/${script} ${args.join(" ")} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout.trim().split("\n").at(-1)!;
}

/** A hang guard per command (an `npm ci` with a cold cache included), generous for a loaded 2-core machine; never a verdict on speed. */
const TOFU_TIMEOUT_MS = 600_000;

export interface TerraformFixture {
  sandbox: RunningSandbox;
  api: CloudCostClient;
  tofuPath: string;
  /** The environment every `tofu` gets: the mirror's CLI configuration and the provider's settings. */
  env: Record<string, string>;
  /** A copy of `folder` (relative to the repository) in a temporary directory, removed after the suite. */
  workspace(folder: string): string;
  /** `tofu ARGS` in `dir`; `-no-color` and `-input=false` where the command takes them. */
  tofu(dir: string, args: string[], env?: Record<string, string>): Promise<TofuResult>;
  /** Any command in `dir` with the same environment (npm ci, npm run get, npm run synth). */
  run(dir: string, command: string, args: string[], env?: Record<string, string>): Promise<TofuResult>;
}

/** A sandbox, the tofu binary and the mirror, set up once per test file (beforeAll) and torn down after it. */
export function useTerraformFixture(): TerraformFixture {
  const temporary: string[] = [];
  const f = {} as TerraformFixture;
  beforeAll(async () => {
    f.tofuPath = lastLine("opentofu.js", ["--print-bin"]);
    const cliConfig = lastLine("terraform-mirror.js");
    f.sandbox = await startSandbox();
    const token = await f.sandbox.token("read,write");
    await holdSandboxDay(f.sandbox, token);
    f.api = new CloudCostClient({ baseUrl: f.sandbox.baseUrl, auth: { apiToken: token } });
    f.env = {
      TF_CLI_CONFIG_FILE: cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      CLOUDCOST_API_URL: f.sandbox.baseUrl,
      CLOUDCOST_API_TOKEN: token,
    };
  });
  afterAll(async () => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
    await f.sandbox?.dispose();
  });
  f.workspace = (folder) => {
    const dir = mkdtempSync(join(tmpdir(), "cloudcost-tofu-"));
    temporary.push(dir);
    // What a clone has: no local state, no installs or generated code of a developer's runs.
    const skipped = /[/\\](\.terraform|terraform\.tfstate[^/\\]*|node_modules|\.gen|cdktf\.out)$/;
    cpSync(join(REPO, folder), dir, { recursive: true, filter: (src) => !skipped.test(src) });
    return dir;
  };
  f.run = (dir, command, args, env) =>
    new Promise((resolve) => {
      execFile(
        command,
        args,
        {
          cwd: dir,
          env: { ...process.env, ...f.env, ...env },
          timeout: TOFU_TIMEOUT_MS,
          killSignal: "SIGKILL",
          maxBuffer: 64 * 1024 * 1024,
        },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
          resolve({ code, stdout, stderr: stderr + killedByBound(err, TOFU_TIMEOUT_MS) });
        },
      );
    });
  f.tofu = (dir, args, env) => {
    const takesFlags = !["show", "version", "output"].includes(args[0]!);
    return f.run(dir, f.tofuPath, [args[0]!, "-no-color", ...(takesFlags ? ["-input=false"] : []), ...args.slice(1)], env);
  };
  return f;
}

/** Every id the organization holds, sorted: what a destroy must leave as it found it. */
export async function organizationIds(api: CloudCostClient): Promise<{ groups: string[]; alerts: string[]; reports: string[] }> {
  const ids = async (items: AsyncIterable<{ id: string }>) => {
    const out: string[] = [];
    for await (const item of items) out.push(item.id);
    return out.sort();
  };
  return { groups: await ids(api.listGroups()), alerts: await ids(api.listAlerts()), reports: await ids(api.listReports()) };
}

/** The subset of `tofu show -json` this suite reads. */
export interface ShownState {
  values?: { root_module?: { resources?: { address: string; type: string; values: Record<string, unknown> }[] } };
}
export interface ShownPlan {
  resource_drift?: { address: string; change: { actions: string[]; before: Record<string, unknown>; after: Record<string, unknown> } }[];
  resource_changes?: { address: string; change: { actions: string[] } }[];
}
