import { ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

/** The sandbox's command line, as built by `npm run build` (resolved through the workspace, so it also works from bench/dist). */
export const SANDBOX_CLI = join(dirname(require.resolve("@cloudcost/sandbox/package.json")), "dist", "cli.js");

export interface StartOptions {
  /** Data folder; a fresh temporary one when omitted (removed again by `dispose`). */
  dataDir?: string;
  /** Extra arguments for `serve` (e.g. `--faults ...`, `--rate-limit ...`). */
  args?: string[];
  env?: Record<string, string>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunningSandbox {
  /** `{base_url}`, e.g. `http://127.0.0.1:41234/api/v1`. */
  baseUrl: string;
  /** `{auth_url}`: the origin. */
  origin: string;
  dataDir: string;
  process: ChildProcess;
  /** Runs `cloudcost-sandbox ARGS --data <dataDir>`. */
  cli(args: string[]): Promise<CliResult>;
  /** Runs the CLI and parses its stdout as JSON; throws with stderr when it fails. */
  cliJson<T>(args: string[]): Promise<T>;
  /** An API token of the `demo` organization. */
  token(scopes?: string): Promise<string>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL (crash) and wait. */
  kill(): Promise<void>;
  /** Stops and removes a temporary data folder. */
  dispose(): Promise<void>;
}

export function runCli(dataDir: string, args: string[], env?: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SANDBOX_CLI, ...args, "--data", dataDir], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function waitForExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

/** Starts `cloudcost-sandbox serve --port 0` as a real process and resolves once it prints its base URL. */
export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  const temporary = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "cloudcost-sandbox-"));
  const child = spawn(process.execPath, [SANDBOX_CLI, "serve", "--port", "0", "--host", "127.0.0.1", "--data", dataDir, ...(opts.args ?? [])], {
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start within 20 s: ${stderr}`)), 20_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const m = /(https?:\/\/\S+\/api\/v1)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code} before it was ready: ${stderr}`));
    });
  });
  const cli = (args: string[]) => runCli(dataDir, args, opts.env);
  const cliJson = async <T>(args: string[]): Promise<T> => {
    const r = await cli(args);
    if (r.code !== 0) throw new Error(`cloudcost-sandbox ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  };
  const stop = async () => {
    child.kill("SIGTERM");
    await waitForExit(child);
  };
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    dataDir,
    process: child,
    cli,
    cliJson,
    token: async (scopes = "read,write,run") => (await cliJson<{ token: string }>(["token", "create", "--org", "demo", "--scopes", scopes, "--json"])).token,
    stop,
    kill: async () => {
      child.kill("SIGKILL");
      await waitForExit(child);
    },
    dispose: async () => {
      await stop();
      if (temporary) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
