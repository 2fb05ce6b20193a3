import { execFile, spawn } from "node:child_process";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import { REPO } from "./story";

/** scripts/pulumi-cli.js: builds the real CLI from its Go modules into .cache/pulumi (plain JavaScript, required by path). */
const BUILD_SCRIPT = join(REPO, "scripts", "pulumi-cli.js");
const VERSION_TIMEOUT_MS = 15_000;

/** How to run the Pulumi CLI: the executable, and the folder its plugins need first on PATH (our build). */
export interface PulumiCli {
  file: string;
  version: string;
  /** Put first on PATH for every command: the language hosts and the dynamic-provider launcher sit there. */
  bin?: string;
}

export type CliLookup = { found: true; cli: PulumiCli } | { found: false; reason: string };

function version(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      file,
      ["version"],
      { timeout: VERSION_TIMEOUT_MS, env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } },
      (err, stdout) => {
        resolve(err ? undefined : stdout.trim());
      },
    );
  });
}

/**
 * Finds a working Pulumi CLI: one on PATH (the official installer's), else the one scripts/pulumi-cli.js builds
 * from the Go module proxy (once; reused from .cache/pulumi afterwards). Without Go or the proxy this returns
 * the reason, and the demo tells its story through the harness instead.
 */
export async function findPulumiCli(): Promise<CliLookup> {
  const onPath = await version("pulumi");
  if (onPath) return { found: true, cli: { file: "pulumi", version: onPath } };
  try {
    const { ensurePulumiCli } = require(BUILD_SCRIPT) as { ensurePulumiCli(): string };
    const bin = ensurePulumiCli();
    const built = await version(join(bin, "pulumi"));
    if (built) return { found: true, cli: { file: join(bin, "pulumi"), version: built, bin } };
    return { found: false, reason: `the Pulumi CLI built in ${bin} does not start` };
  } catch (err) {
    return {
      found: false,
      reason: `no \`pulumi\` on PATH, and it could not be built: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
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
    const env = cli.bin ? { ...opts.env, PATH: [cli.bin, opts.env.PATH ?? ""].join(delimiter) } : opts.env;
    const child = spawn(cli.file, [...args, "--non-interactive", "--color", "never"], {
      cwd: opts.cwd,
      env,
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
