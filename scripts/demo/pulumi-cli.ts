import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { REPO } from "./story";

/** The `pulumi` npm package: a small launcher that downloads the real CLI on first use. */
const NPM_LAUNCHER = join(REPO, "node_modules", "pulumi", "run.js");
/** Where that launcher fetches the install script; probed first so an offline machine fails fast. */
const DOWNLOAD_PROBE_URL = "https://get.pulumi.com/install.sh";
const PROBE_TIMEOUT_MS = 3_000;
const VERSION_TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 300_000;

/** How to run the Pulumi CLI: the executable and the arguments that come before the command's own. */
export interface PulumiCli {
  file: string;
  prefix: string[];
  version: string;
}

export type CliLookup = { found: true; cli: PulumiCli } | { found: false; reason: string };

function version(file: string, prefix: string[], timeout: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, [...prefix, "version"], { timeout, env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } }, (err, stdout) => {
      resolve(err ? undefined : stdout.trim());
    });
  });
}

/** The version the launcher would use, and whether it has already been downloaded into ~/.pulumi. */
function launcherCache(): { version: string; cached: boolean } {
  const pkg = require(join(REPO, "node_modules", "pulumi", "package.json")) as { version: string };
  const wanted = process.env.PULUMI_VERSION ?? pkg.version;
  const home = process.env.PULUMI_HOME ?? join(homedir(), ".pulumi");
  return { version: wanted, cached: existsSync(join(home, "versions", wanted, "bin", "pulumi")) };
}

async function reachable(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Finds a working Pulumi CLI: one on PATH, else the one the `pulumi` npm package provides (downloading
 * it when the download host answers). Offline, this returns within a few seconds with the reason.
 */
export async function findPulumiCli(): Promise<CliLookup> {
  const onPath = await version("pulumi", [], VERSION_TIMEOUT_MS);
  if (onPath) return { found: true, cli: { file: "pulumi", prefix: [], version: onPath } };
  if (!existsSync(NPM_LAUNCHER)) return { found: false, reason: "no `pulumi` on PATH and the `pulumi` npm package is not installed" };
  const cache = launcherCache();
  if (!cache.cached && !(await reachable(DOWNLOAD_PROBE_URL))) {
    return {
      found: false,
      reason: `no \`pulumi\` on PATH and the \`pulumi\` npm package cannot download CLI v${cache.version} (no network)`,
    };
  }
  if (!cache.cached) console.log(`   Downloading the Pulumi CLI v${cache.version} through the \`pulumi\` npm package (first run only) ...`);
  const fromNpm = await version(process.execPath, [NPM_LAUNCHER], cache.cached ? VERSION_TIMEOUT_MS : DOWNLOAD_TIMEOUT_MS);
  if (fromNpm) return { found: true, cli: { file: process.execPath, prefix: [NPM_LAUNCHER], version: fromNpm } };
  return { found: false, reason: `the \`pulumi\` npm package could not start CLI v${cache.version}` };
}

export interface PulumiRun {
  code: number;
  output: string;
}

/**
 * Runs one Pulumi command in `cwd`, echoing its output line by line (indented) while collecting it.
 * Never throws for a non-zero exit: a policy violation is an expected outcome of the story.
 */
export function runPulumi(
  cli: PulumiCli,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; echo?: (line: string) => void; stdin?: string },
): Promise<PulumiRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cli.file, [...cli.prefix, ...args, "--non-interactive", "--color", "never"], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    // Secrets go in on stdin (`pulumi config set --secret KEY` reads it there), never on the command line.
    child.stdin.end(opts.stdin ?? "");
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        output += `${line}\n`;
        opts.echo?.(line);
      });
    }
    child.once("error", reject);
    child.once("close", (code) => resolve({ code: code ?? 1, output }));
  });
}
