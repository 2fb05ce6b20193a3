/**
 * Running a user's commands in the registry and release suites: a shell's environment (without the npm_* variables of
 * the npm that started jest), a command that fails with its output, and a Python virtual environment.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { goProgramBuildFlags } from "@cloudcost/testkit";

const exec = promisify(execFile);
/** A hang guard per command (a cold Go build of sdk/v3 under load takes minutes). */
const COMMAND_TIMEOUT_MS = 600_000;

/** A shell's environment without the npm_* variables of the npm that started jest, plus EXTRA. */
export function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))), ...extra };
}

/** Runs COMMAND in CWD and resolves its stdout; a failure throws with everything it printed. */
export async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = userEnv({})): Promise<string> {
  try {
    return (await exec(command, args, { cwd, env, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stdout = "", stderr = "" } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}${stderr}`, { cause: err });
  }
}

/**
 * `go build FLAGS -o OUT` of the program in CWD, with the flags our Go language host builds a program with
 * (goProgramBuildFlags): the packages it shares with the CLI's build (the standard library, and every module at the
 * CLI's version) are the ones Go's build cache already holds instead of each suite compiling them again.
 */
export async function goBuild(out: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return sh("go", ["build", ...goProgramBuildFlags(), "-o", out, "."], cwd, env);
}

/** A Python virtual environment at DIR with PACKAGES installed by pip (pip's own configuration unless PIP_ARGS say otherwise). */
export async function virtualenv(dir: string, packages: string[], pipArgs: string[] = []): Promise<string> {
  await sh("python3", ["-m", "venv", dir], dirname(dir));
  if (packages.length > 0) await sh(join(dir, "bin", "pip"), ["install", "--quiet", ...pipArgs, ...packages], dir);
  return dir;
}
