import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { StackFileTemplate, type ConfigValue } from "./stack-config-file";
import { startVaultTransit, type VaultTransit } from "./vault-transit";

export type { ConfigValue } from "./stack-config-file";

/**
 * The real Pulumi CLI, built by scripts/pulumi-cli.js from its Go modules, run the way a user's CI runs it:
 * offline and quiet — a file backend in a temporary folder, its own PULUMI_HOME, a key service for stack secrets
 * (Vault's transit engine, stood in for on 127.0.0.1: ./vault-transit.ts) or a passphrase, no update check, no plugin
 * downloads, no registry lookups, no Pulumi account.
 */

/** scripts/pulumi-cli.js, plain JavaScript outside every package: required by path. */
const BUILD_SCRIPT = join(dirname(require.resolve("@cloudcost/testkit/package.json")), "..", "scripts", "pulumi-cli.js");

interface BuildScript {
  ensurePulumiCli(): string;
  PULUMI_VERSION: string;
  PROGRAM_BUILD_FLAGS: string[];
}

/** Builds the CLI once (reused afterwards) and returns its bin folder. */
export function pulumiCliBin(): string {
  return (require(BUILD_SCRIPT) as BuildScript).ensurePulumiCli();
}

/** The pinned release (`v3.274.1`). */
export function pulumiCliVersion(): string {
  return (require(BUILD_SCRIPT) as BuildScript).PULUMI_VERSION;
}

/**
 * The flags our Go language host compiles a program with (`go build FLAGS -o OUT .`): a Go program a test builds or
 * vets with them reuses the packages the CLI's build left in Go's build cache, instead of compiling them again.
 */
export function goProgramBuildFlags(): string[] {
  return [...(require(BUILD_SCRIPT) as BuildScript).PROGRAM_BUILD_FLAGS];
}

export interface PulumiResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  /** Start the command as the leader of a new process group (for tests that interrupt it). */
  processGroup?: boolean;
  /** The hang guard: the command is killed after this long (default 300 s; a stack of 1,000 on a busy machine needs more). */
  timeoutMs?: number;
}

/** A command started by {@link PulumiWorkspace.start}: its process and how it ended. */
export interface RunningCommand {
  child: ChildProcess;
  done: Promise<PulumiResult>;
}

/** A command that has not ended by then is killed and fails its test (an `up` here takes seconds). */
const COMMAND_TIMEOUT_MS = 300_000;

/** The passphrase that encrypts the secrets of a throwaway stack on the passphrase provider. */
export const TEST_PASSPHRASE = "cloudcost-engine-tests";

/**
 * How a workspace's stacks encrypt their secrets: `vault` (the default), Pulumi's cloud secrets manager on the
 * 127.0.0.1 stand-in for Vault's transit engine, one request per command; `passphrase`, the provider a user without a
 * key service picks, which costs every command that loads the stack ~0.2 CPU s of key derivation (./vault-transit.ts).
 */
export type StackSecretsProvider = "vault" | "passphrase";

/** `pulumi stack init --secrets-provider`'s argument; `hashivault://KEY` is gocloud.dev/secrets/hashivault's URL. */
const SECRETS_PROVIDER_ARG: Record<StackSecretsProvider, string> = {
  vault: "hashivault://cloudcost-stacks",
  passphrase: "passphrase",
};

/** One isolated Pulumi installation: its own backend, home and environment; `dispose` removes both folders. */
export class PulumiWorkspace {
  readonly backendDir: string;
  readonly homeDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** From the last stack initialized here with `pulumi config set`: what later stacks' files start from. */
  private stackFile?: StackFileTemplate;
  private readonly secretsProvider: StackSecretsProvider;
  /**
   * The key service, once a stack of this workspace needs it (`initStack`): its address joins `env` then, so that every
   * process started with the workspace's env (the CLI, `cloudcost-pulumi pending`, which runs the CLI) reaches it.
   */
  private vault?: Promise<VaultTransit>;

  constructor(opts: { bin?: string; env?: Record<string, string>; secretsProvider?: StackSecretsProvider } = {}) {
    this.secretsProvider = opts.secretsProvider ?? "vault";
    const bin = opts.bin ?? pulumiCliBin();
    this.backendDir = mkdtempSync(join(tmpdir(), "cloudcost-pulumi-state-"));
    this.homeDir = mkdtempSync(join(tmpdir(), "cloudcost-pulumi-home-"));
    const inherited: NodeJS.ProcessEnv = { ...process.env };
    // Only the stack's own config may reach the provider; a CLOUDCOST_* variable of the caller would hide a bug.
    for (const key of Object.keys(inherited)) if (key.startsWith("CLOUDCOST_") || key.startsWith("PULUMI_")) delete inherited[key];
    this.env = {
      ...inherited,
      // The CLI and its plugins first, then the Node running us (the language host and the dynamic provider start `node`).
      PATH: [bin, dirname(process.execPath), process.env.PATH ?? ""].join(delimiter),
      PULUMI_HOME: this.homeDir,
      PULUMI_BACKEND_URL: `file://${this.backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      // The repository type-checks every example (`npm run typecheck`); the program only needs transpiling.
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      ...opts.env,
    };
  }

  /**
   * Runs `pulumi ARGS` in `cwd` (never throws for a non-zero exit: callers assert on it). `stdin` is written
   * to the command; `env` adds variables for this command only (credentials taken from the shell).
   */
  run(args: string[], cwd: string, opts: RunOptions = {}): Promise<PulumiResult> {
    return this.start(args, cwd, opts).done;
  }

  /**
   * Starts `pulumi ARGS` and returns at once: the process and its outcome. With `processGroup` it leads a
   * process group of its own, so the language host and provider processes it starts can be found and
   * signalled with it.
   */
  start(args: string[], cwd: string, opts: RunOptions = {}): RunningCommand {
    const child = spawn("pulumi", [...args, "--non-interactive", "--color", "never"], {
      cwd,
      env: { ...this.env, ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: opts.processGroup === true,
    });
    const done = new Promise<PulumiResult>((resolve, reject) => {
      // Secrets go in on stdin (`pulumi config set --secret KEY` reads them there), never on a command line.
      child.stdin.end(opts.stdin ?? "");
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? COMMAND_TIMEOUT_MS);
      child.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
      });
    });
    return { child, done };
  }

  /** Like `run`, but a non-zero exit throws with what the CLI said. */
  async must(args: string[], cwd: string, opts: RunOptions = {}): Promise<PulumiResult> {
    const result = await this.run(args, cwd, opts);
    if (result.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} exited with ${result.code}\n${result.stdout}\n${result.stderr}`);
    }
    return result;
  }

  /**
   * `pulumi stack init` with the workspace's secrets provider and CONFIG. The workspace's first stack gets each value
   * by `pulumi config set` (secrets through stdin); a later one, when an earlier one's file holds what it needs (the
   * provider's state, its secrets' ciphertexts), a config file written before `stack init` (StackFileTemplate).
   */
  async initStack(stack: string, cwd: string, config: ConfigValue[]): Promise<PulumiStack> {
    const s = new PulumiStack(this, stack, cwd);
    if (this.secretsProvider === "vault") Object.assign(this.env, (await (this.vault ??= startVaultTransit())).env);
    const written = this.stackFile?.tryWrite(cwd, stack, config) ?? false;
    await this.must(["stack", "init", stack, "--secrets-provider", SECRETS_PROVIDER_ARG[this.secretsProvider]], cwd);
    if (written) return s;
    for (const c of config) await s.setConfig(c);
    this.stackFile = StackFileTemplate.read(cwd, stack, config) ?? this.stackFile;
    return s;
  }

  dispose(): void {
    void this.vault?.then((vault) => vault.close());
    rmSync(this.backendDir, { recursive: true, force: true });
    rmSync(this.homeDir, { recursive: true, force: true });
  }
}

/** One entry of `pulumi preview --json`'s `steps`. */
export interface PreviewStep {
  op: string;
  urn: string;
  diffReasons?: string[];
  replaceReasons?: string[];
  detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }> | null;
  oldState?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
  newState?: { type?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
}

/** What `pulumi preview --json` prints (pkg/cmd/pulumi/operations/preview.go, display.PreviewDigest). */
export interface PreviewDigest {
  config?: Record<string, string>;
  steps: PreviewStep[];
  diagnostics?: { urn?: string; message: string; severity: string }[];
  changeSummary: Record<string, number>;
  policies?: unknown[];
}

/** A checkpoint resource of `pulumi stack export` (apitype.ResourceV3). */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  parent?: string;
  provider?: string;
  dependencies?: string[];
  additionalSecretOutputs?: string[];
}

export interface StackExport {
  version: number;
  deployment: { resources?: StateResource[]; pending_operations?: { resource: StateResource; type: string }[] };
}

/** One stack of a workspace, in one program folder. */
export class PulumiStack {
  constructor(
    readonly workspace: PulumiWorkspace,
    readonly name: string,
    readonly cwd: string,
  ) {}

  private args(args: string[]): string[] {
    return [...args, "--stack", this.name];
  }

  run(args: string[], opts: RunOptions = {}): Promise<PulumiResult> {
    return this.workspace.run(this.args(args), this.cwd, opts);
  }

  must(args: string[], opts: RunOptions = {}): Promise<PulumiResult> {
    return this.workspace.must(this.args(args), this.cwd, opts);
  }

  setConfig({ key, value, secret }: ConfigValue): Promise<PulumiResult> {
    return secret ? this.must(["config", "set", "--secret", key], { stdin: value }) : this.must(["config", "set", key, value]);
  }

  /** Sets KEY to VALUE as JSON text, which `config.requireObject` parses in the program. */
  setConfigObject(key: string, value: unknown, opts: { secret?: boolean } = {}): Promise<PulumiResult> {
    return this.setConfig({ key, value: JSON.stringify(value), secret: opts.secret });
  }

  up(extra: string[] = [], opts: RunOptions = {}): Promise<PulumiResult> {
    return this.run(["up", "--yes", "--skip-preview", ...extra], opts);
  }

  refresh(extra: string[] = [], opts: RunOptions = {}): Promise<PulumiResult> {
    return this.run(["refresh", "--yes", "--skip-preview", ...extra], opts);
  }

  destroy(extra: string[] = [], opts: RunOptions = {}): Promise<PulumiResult> {
    return this.run(["destroy", "--yes", "--skip-preview", ...extra], opts);
  }

  /** Starts `pulumi ARGS` for this stack without waiting (see {@link PulumiWorkspace.start}). */
  start(args: string[], opts: RunOptions = {}): RunningCommand {
    return this.workspace.start(this.args(args), this.cwd, opts);
  }

  /** `pulumi preview --json` (plus EXTRA), parsed; a failed preview still prints its digest. */
  async previewJson(extra: string[] = [], opts: RunOptions = {}): Promise<{ code: number; digest: PreviewDigest; stderr: string }> {
    const result = await this.run(["preview", "--json", ...extra], opts);
    try {
      return { code: result.code, digest: JSON.parse(result.stdout) as PreviewDigest, stderr: result.stderr };
    } catch (cause) {
      throw new Error(`pulumi preview --json printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`, { cause });
    }
  }

  async outputs(): Promise<Record<string, unknown>> {
    const result = await this.must(["stack", "output", "--json", "--show-secrets"]);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  /** `pulumi stack export`; with `showSecrets`, secrets decrypted (the engine re-encrypts them with a fresh nonce on every save). */
  async exportState(opts: { showSecrets?: boolean } = {}): Promise<StackExport> {
    const args = ["stack", "export", ...(opts.showSecrets ? ["--show-secrets"] : [])];
    return JSON.parse((await this.must(args)).stdout) as StackExport;
  }

  /** The resources of the stack's state whose type is TYPE (e.g. `pulumi-nodejs:dynamic/cloudcost:BudgetAlert`). */
  async resourcesOfType(type: string): Promise<StateResource[]> {
    return ((await this.exportState()).deployment.resources ?? []).filter((r) => r.type === type);
  }

  remove(): Promise<PulumiResult> {
    return this.run(["stack", "rm", "--yes", "--force"]);
  }
}
