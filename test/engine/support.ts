/**
 * What the real-engine suites share: a sandbox, an isolated Pulumi workspace (scripts/pulumi-cli.js's CLI),
 * a program copied out of the repository the way a user copies an example, and a look at the organization
 * through the API.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { AlertInput, CloudCostClient } from "@cloudcost/api";
import {
  PulumiWorkspace,
  goProgramBuildFlags,
  holdSandboxDay,
  killedByBound,
  startSandbox,
  type ConfigValue,
  type PreviewDigest,
  type PreviewStep,
  type PulumiStack,
  type RunningSandbox,
  type StackSecretsProvider,
  type StateResource,
} from "@cloudcost/testkit";
import { z } from "zod";

export const REPO = join(__dirname, "..", "..");
export const EXAMPLES = join(REPO, "examples");
export const FIXTURES = join(__dirname, "fixtures");
export const POLICY_PACK = join(REPO, "policies");

/** fixtures/declared: one program that declares what its stack config lists (see its index.ts). */
export const DECLARED_PROGRAM = join(FIXTURES, "declared");
/** The stack config key that program reads. */
export const DECLARED_RESOURCES = "cloudcost-engine-declared:resources";
export type Kind = "CloudGroup" | "BudgetAlert" | "ScheduledReport";
/** One entry of that list (the program's own `Declared`). */
export interface Declared {
  kind: Kind;
  name: string;
  inputs?: Record<string, unknown>;
  get?: string;
  groupOf?: string;
  options?: { ignoreChanges?: string[]; replaceOnChanges?: string[]; retainOnDelete?: boolean; deleteBeforeReplace?: boolean };
}

/** Type tokens of the dynamic resources (provider/src/resource-class.ts). */
export const TYPES = {
  group: "pulumi-nodejs:dynamic/cloudcost:CloudGroup",
  alert: "pulumi-nodejs:dynamic/cloudcost:BudgetAlert",
  report: "pulumi-nodejs:dynamic/cloudcost:ScheduledReport",
} as const;

/**
 * A copy of a program folder in a temporary folder, with the repository's node_modules linked in: what a
 * user has after copying an example and installing it, and no stack file is ever written into the repository.
 */
export function copyProgram(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), "cloudcost-program-"));
  cpSync(dir, copy, { recursive: true, filter: (src) => !src.includes("node_modules") });
  symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"), "dir");
  return copy;
}

/** One sandbox, one workspace, one copied program: a stack a test can `up`, change and tear down. */
export interface EngineFixture {
  sandbox: RunningSandbox;
  workspace: PulumiWorkspace;
  api: CloudCostClient;
  token: string;
  /** Starts a stack of the program in DIR (copied first) with the sandbox's credentials and CONFIG. */
  stack(dir: string, name: string, config?: ConfigValue[]): Promise<PulumiStack>;
  dispose(): Promise<void>;
}

/** `secretsProvider`: how the stacks encrypt their secrets (testkit's `PulumiWorkspace` default, a key service, if unset). */
export async function startEngineFixture(secretsProvider?: StackSecretsProvider): Promise<EngineFixture> {
  const sandbox = await startSandbox();
  const workspace = new PulumiWorkspace({ secretsProvider });
  const copies: string[] = [];
  const token = await sandbox.token("read,write");
  await holdSandboxDay(sandbox, token);
  const api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  return {
    sandbox,
    workspace,
    api,
    token,
    async stack(dir, name, config = []) {
      const copy = copyProgram(dir);
      copies.push(copy);
      return workspace.initStack(name, copy, [...credentials(sandbox.baseUrl, token), ...config]);
    },
    async dispose() {
      workspace.dispose();
      for (const copy of copies) rmSync(copy, { recursive: true, force: true });
      await sandbox.dispose();
    },
  };
}

/**
 * The test file's fixture: started before its first test, disposed after its last. The object is filled in
 * by `beforeAll`, so tests use it as it is.
 */
export function useEngineFixture(secretsProvider?: StackSecretsProvider): EngineFixture {
  const fixture = {} as EngineFixture;
  beforeAll(async () => void Object.assign(fixture, await startEngineFixture(secretsProvider)));
  afterAll(() => fixture.dispose?.());
  return fixture;
}

/** The provider's stack config for an API token (the token a secret, as users are told to set it). */
export function credentials(apiUrl: string, token: string): ConfigValue[] {
  return [
    { key: "cloudcost:apiUrl", value: apiUrl },
    { key: "cloudcost:apiToken", value: token, secret: true },
  ];
}

/** Every group, alert and report ID of the organization, as the API lists them. */
export async function organizationIds(api: CloudCostClient): Promise<{ groups: string[]; alerts: string[]; reports: string[] }> {
  const ids = async (items: AsyncIterable<{ id: string }>) => {
    const out: string[] = [];
    for await (const item of items) out.push(item.id);
    return out.sort();
  };
  return { groups: await ids(api.listGroups()), alerts: await ids(api.listAlerts()), reports: await ids(api.listReports()) };
}

/**
 * The input keys whose values differ between a step's old and new state, the reserved `__` keys aside
 * (`__provider`, and issue 28's `__createKey`, which Check derives from the other inputs, so it follows them).
 */
export function changedInputs(step: PreviewStep): string[] {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !k.startsWith("__") && JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

/** The steps of a preview other than `same` and the refreshes a `--refresh` preview lists first. */
export function changes(digest: PreviewDigest): PreviewStep[] {
  return digest.steps.filter((s) => s.op !== "same" && s.op !== "refresh");
}

/** The URN's last part: the resource's name. */
export function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

/** The ID of each resource in the stack's state that has one, by its name (nameOf). */
export async function idsByName(stack: PulumiStack): Promise<Map<string, string>> {
  const resources = (await stack.exportState()).deployment.resources ?? [];
  return new Map(resources.filter((r) => r.id).map((r) => [nameOf(r.urn), r.id!]));
}

/**
 * The cloudcost resources' inputs and outputs without what changes on every write (`updatedAt`), for comparing
 * states, from an export with secrets shown (their ciphertexts change on every save).
 */
export function comparable(resources: StateResource[]): unknown[] {
  return resources
    .filter((r) => r.custom)
    .map((r) => ({ urn: r.urn, id: r.id, inputs: r.inputs, outputs: { ...r.outputs, updatedAt: undefined } }))
    .sort((a, b) => a.urn.localeCompare(b.urn));
}

/** Fails with what the CLI printed when a command did not succeed (a bare exit code says nothing). */
export function expectSuccess(result: { code: number; stdout: string; stderr: string }): void {
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
}

/**
 * Sets the stack's first alert of TYPE (dynamic or native), or its alert named NAME, to another amount through the
 * API, as a portal user would, behind Pulumi's back.
 */
export async function changeAlertAmount(
  api: CloudCostClient,
  stack: PulumiStack,
  type: string,
  name?: string,
): Promise<{ name: string; id: string; declared: number; drifted: number }> {
  const [alert] = (await stack.resourcesOfType(type)).filter((r) => name === undefined || nameOf(r.urn) === name);
  if (!alert?.id) throw new Error(`stack ${stack.name} has no budget alert${name === undefined ? "" : ` named ${name}`}`);
  const current = await api.getAlert(alert.id);
  const drifted = current.amount + 1234;
  await api.replaceAlert(alert.id, { ...z.object(AlertInput.shape).parse(current), amount: drifted });
  return { name: nameOf(alert.urn), id: alert.id, declared: current.amount, drifted };
}

/** A hang guard for a Go program's first compile: the Pulumi SDK and gRPC on a cold build cache, beside other cells. */
export const GO_COMPILE_TIMEOUT_MS = 900_000;

/**
 * Compiles the Go program in DIR as our Go language host does (`go build` with its flags: goProgramBuildFlags), the
 * executable thrown away, so that Go's build cache holds every package the program imports and the `pulumi up` after
 * it compiles only the program. On a cold cache that first compile (the Pulumi SDK, gRPC, protobuf) took over 300 s on
 * a loaded 2-core machine inside `pulumi up`, whose hang guard (300 s) then killed the CLI: a slow setup step, not a
 * hang, so it runs here under its own bound.
 */
export async function compileGoProgram(dir: string): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "cloudcost-go-program-"));
  try {
    await promisify(execFile)("go", ["build", ...goProgramBuildFlags(), "-o", join(out, "program"), "."], {
      cwd: dir,
      timeout: GO_COMPILE_TIMEOUT_MS,
      killSignal: "SIGKILL",
    });
  } catch (err) {
    const killed = killedByBound(err as { killed?: boolean }, GO_COMPILE_TIMEOUT_MS);
    throw killed ? new Error(`go build in ${dir}: ${killed}`, { cause: err }) : err;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Installing pulumi and its dependencies from PyPI takes a minute or more on a cold pip cache. */
const PIP_TIMEOUT_MS = 600_000;

/**
 * A Python virtual environment with `pulumi` from PyPI and the generated SDK (sdk/python), as pip installs them.
 * A program uses it as Pulumi.yaml's `virtualenv: venv` when linked in as `venv`; nobody removes it.
 *
 * One per content of sdk/python and Python version, in the user's cache folder (XDG_CACHE_HOME: a fresh one per
 * CI run), shared by every suite and jest worker: building one (a venv, pip resolving and installing pulumi and its
 * gRPC wheels) costs tens of CPU seconds, and three suites each built their own. The first to ask builds it while
 * holding a lock (a directory, made atomically, naming its process); the others wait for its `.ready` marker.
 */
export async function pythonEnvironment(): Promise<string> {
  const python = (await promisify(execFile)("python3", ["--version"])).stdout.trim();
  const key = createHash("sha256")
    .update(python)
    .update(treeDigest(join(REPO, "sdk", "python")))
    .digest("hex")
    .slice(0, 16);
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "cloudcost-test-venvs", key);
  const lock = `${dir}.lock`;
  mkdirSync(dirname(dir), { recursive: true });
  while (!existsSync(join(dir, ".ready"))) {
    if (!takeLock(lock)) {
      await delay(1_000);
      continue;
    }
    try {
      if (!existsSync(join(dir, ".ready"))) {
        rmSync(dir, { recursive: true, force: true });
        await buildPythonEnvironment(dir);
        writeFileSync(join(dir, ".ready"), python);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

/** Takes the lock directory, or frees it first when the process that holds it is gone (killed mid-build). */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, "pid"), String(process.pid));
    return true;
  } catch {
    const holder = Number(existsSync(join(lock, "pid")) ? readFileSync(join(lock, "pid"), "utf8") : NaN);
    if (Number.isInteger(holder) && !isAlive(holder)) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The files of a folder, names and contents, as one digest. */
function treeDigest(root: string): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort()) {
    hash.update(file.slice(root.length)).update(readFileSync(file));
  }
  return hash.digest("hex");
}

async function buildPythonEnvironment(dir: string): Promise<void> {
  const run = promisify(execFile);
  await run("python3", ["-m", "venv", dir], { timeout: PIP_TIMEOUT_MS });
  // From a copy: pip builds in the source tree (build/, *.egg-info), and sdk/ holds only what gen-sdk wrote.
  const source = join(dir, "sdk-source");
  cpSync(join(REPO, "sdk", "python"), source, { recursive: true });
  await run(join(dir, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", source], { timeout: PIP_TIMEOUT_MS });
}

/** Pulumi.yaml lines that run the native plugin from its folder in this repository (native/README.md). */
export const NATIVE_PLUGIN_YAML = `\nplugins:\n  providers:\n    - name: cloudcost\n      path: ${join(REPO, "native", "bin")}\n`;
