import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { killedByBound, noteCommandEnd, readyLine, stopChild } from "./child-process";

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

/** What `client create --json` prints: the secret is shown this once. */
export interface OAuthClient {
  client_id: string;
  client_secret: string;
  scopes: string[];
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
  /** A confidential OAuth client of the `demo` organization (scopes comma-separated, default read,write). */
  client(scopes?: string): Promise<OAuthClient>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL (crash) and wait. */
  kill(): Promise<void>;
  /** Stops and removes a temporary data folder. */
  dispose(): Promise<void>;
}

/**
 * A CLI command that has not ended by then is killed: left running past the test's own timeout, it
 * would keep the jest worker from exiting. A hang guard, generous enough for a machine under load.
 */
const CLI_TIMEOUT_MS = 120_000;

export function runCli(dataDir: string, args: string[], env?: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const options = { env: { ...process.env, ...env }, timeout: CLI_TIMEOUT_MS, killSignal: "SIGKILL" as const };
    execFile(process.execPath, [SANDBOX_CLI, ...args, "--data", dataDir], options, (err, stdout, stderr) => {
      noteCommandEnd(`cloudcost-sandbox ${args[0] ?? ""}`, err, options.killSignal);
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr: stderr + killedByBound(err, CLI_TIMEOUT_MS) });
    });
  });
}

/** A CLI command run with `--json`: its parsed output, or an error carrying its stderr. */
export async function cliJson<T>(dataDir: string, args: string[], env?: Record<string, string>): Promise<T> {
  const r = await runCli(dataDir, args, env);
  if (r.code !== 0) throw new Error(`cloudcost-sandbox ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** POST to the sandbox controls (`/sandbox/v1`, sandbox/README.md), failing on anything but success: the parsed answer. */
export async function sandboxControl(
  sandbox: RunningSandbox,
  token: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.origin}/sandbox/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST /sandbox/v1${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Stops the clock of TOKEN's organization, so that every reading of a test's sandbox falls on one day. Spend is
 * month-to-date, billed up to the day before the clock's date: a test that reads it twice (a stack output against the
 * API, two sandboxes against each other, a refresh expected to change nothing) fails whenever UTC midnight passes
 * between the two readings (issue 39's flake hunt met it at 00:00). At AT, or a second past the sandbox's own now
 * (the clock moves only forward; two sandboxes compared take one AT).
 */
export async function holdSandboxDay(sandbox: RunningSandbox, token: string, at?: Date): Promise<void> {
  await sandboxControl(sandbox, token, "/clock", at ? { now: at.toISOString() } : { advance: "PT1S" });
}

/** Starts `cloudcost-sandbox serve --port 0` as a real process and resolves once it prints its base URL. */
export async function startSandbox(opts: StartOptions = {}): Promise<RunningSandbox> {
  const temporary = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "cloudcost-sandbox-"));
  const child = spawn(
    process.execPath,
    [SANDBOX_CLI, "serve", "--port", "0", "--host", "127.0.0.1", "--data", dataDir, ...(opts.args ?? [])],
    {
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  let baseUrl: string;
  try {
    baseUrl = await readyLine(
      child,
      "sandbox",
      (line) => /(https?:\/\/\S+\/api\/v1)/.exec(line)?.[1],
      () => stderr,
    );
  } catch (err) {
    await stopChild(child, "SIGKILL");
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const cli = (args: string[]) => runCli(dataDir, args, opts.env);
  const json = <T>(args: string[]): Promise<T> => cliJson<T>(dataDir, args, opts.env);
  const stop = () => stopChild(child);
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    dataDir,
    process: child,
    cli,
    cliJson: json,
    token: async (scopes = "read,write,run") =>
      (await json<{ token: string }>(["token", "create", "--org", "demo", "--scopes", scopes, "--json"])).token,
    client: (scopes = "read,write") => json<OAuthClient>(["client", "create", "--org", "demo", "--scopes", scopes, "--json"]),
    stop,
    kill: () => stopChild(child, "SIGKILL"),
    dispose: async () => {
      await stop();
      if (temporary) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
