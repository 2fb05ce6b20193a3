/**
 * Starts the REAL dynamic-provider host of @pulumi/pulumi (`cmd/dynamic-provider`) as a child process and
 * drives it over gRPC the way the Pulumi engine does. Used by the provider's protocol tests, the mock
 * engine (mock-engine.ts), the policy/example tests and the benchmark.
 *
 *   const host = await startProviderHost();
 *   await host.configure({ "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) });
 *   const checked = await host.check(urn("BudgetAlert", "a"), {}, { ...inputs, __provider: await providerText("BudgetAlert") });
 *   const { id, properties } = await host.create(urn("BudgetAlert", "a"), checked.inputs);
 *   await host.stop();
 */
import { type ChildProcess, spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import type { ResourceKind } from "@cloudcost/pulumi";
import * as pulumi from "@pulumi/pulumi";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { readyLine, stopChild } from "./child-process";

type Json = Record<string, unknown>;
export type { ResourceKind };

/** Every resource kind of the package, in the order tests and benchmarks mix them. */
export const RESOURCE_KINDS: readonly ResourceKind[] = ["CloudGroup", "BudgetAlert", "ScheduledReport"];

/** The repository root: the host runs here so `require("@cloudcost/pulumi/runtime")` resolves like in a program. */
export const REPO_ROOT = dirname(dirname(realpathSync(require.resolve("@cloudcost/pulumi/package.json"))));
const HOST_ENTRY = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");

/** The engine's wire form of a secret value (the host unwraps it before `configure` sees it). */
export function secret(value: string): Json {
  return { [specialSigKey]: specialSecretSig, value };
}

/** The sentinel the engine sends for values not known during preview. */
export const UNKNOWN: string = pulumi.runtime.unknownValue;

/** A URN as the engine would build it for a resource of this package. */
export function urn(kind: ResourceKind, name: string, stack = "test", project = "cloudcost-test"): string {
  return `urn:pulumi:${stack}::${project}::pulumi-nodejs:dynamic/cloudcost:${kind}::${name}`;
}

let workspaceTexts: Promise<Record<ResourceKind, string>> | undefined;

/**
 * The `__provider` text each kind of resource carries, exactly as `pulumi.dynamic.Resource` produces it
 * from the built package (`provider/dist`) in a plain Node process (the test transform would reformat
 * the functions' source). Computed once per test process.
 */
export function providerTexts(): Promise<Record<ResourceKind, string>> {
  workspaceTexts ??= registeredProviderTexts(REPO_ROOT);
  return workspaceTexts;
}

/** The `__provider` text of one kind (see {@link providerTexts}). */
export async function providerText(kind: ResourceKind): Promise<string> {
  return (await providerTexts())[kind];
}

export interface CheckOutcome {
  inputs: Json;
  failures: { property: string; reason: string }[];
}
export interface DiffOutcome {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  deleteBeforeReplace: boolean;
}
export interface ReadOutcome {
  /** "" when the object no longer exists. */
  id: string;
  properties: Json;
  /** The response carried no properties at all: the engine's only "does not exist" for a read step. */
  outputsMissing: boolean;
  inputs: Json | undefined;
}

export interface ProviderHost {
  process: ChildProcess;
  /** `127.0.0.1:port` of the host's gRPC server (lean-engine.ts connects there too). */
  address: string;
  /** Everything the host wrote to stderr so far (it logs failed calls there). */
  stderr(): string;
  /** Stack config with namespaced keys (`cloudcost:apiUrl`); wrap secret values with {@link secret}. */
  configure(config: Json): Promise<boolean>;
  check(urn: string, olds: Json, news: Json): Promise<CheckOutcome>;
  /** `olds` are the old OUTPUTS (the host hands them to `diff`); `oldInputs` go in their own field. */
  diff(urn: string, id: string, olds: Json, news: Json, oldInputs?: Json): Promise<DiffOutcome>;
  create(urn: string, properties: Json): Promise<{ id: string; properties: Json }>;
  read(urn: string, id: string, properties: Json, inputs?: Json): Promise<ReadOutcome>;
  update(urn: string, id: string, olds: Json, news: Json, oldInputs?: Json): Promise<Json>;
  delete(urn: string, id: string, properties: Json): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export interface HostOptions {
  /** Working folder of the host (module resolution of the runtime happens here); default the repo root. */
  cwd?: string;
  /**
   * Run the host of the `@pulumi/pulumi` installed in this folder (a project installed from a registry)
   * instead of the workspace's.
   */
  hostFrom?: string;
  /**
   * A provider plugin's entry to run instead of the dynamic-provider host, spoken to the same way: the
   * native plugin (`native/dist/plugin/main.js`, {@link NATIVE_PLUGIN_ENTRY}), the second door onto the runtime.
   */
  entry?: string;
  env?: Record<string, string>;
}

/** The native plugin's entry (what `native/bin/pulumi-resource-cloudcost` runs). */
export const NATIVE_PLUGIN_ENTRY = join(REPO_ROOT, "native", "dist", "plugin", "main.js");

/** A URN of a resource of the native plugin (`cloudcost:index:<Kind>`). */
export function nativeUrn(kind: ResourceKind, name: string, stack = "test", project = "cloudcost-test"): string {
  return `urn:pulumi:${stack}::${project}::cloudcost:index:${kind}::${name}`;
}

const DEADLINE_MS = 60_000;
const CHANGES = ["unknown", "none", "some"] as const;

type Unary<Req, Res> = (
  req: Req,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res?: Res) => void,
) => grpc.ClientUnaryCall;

function call<Req, Res>(client: provrpc.ResourceProviderClient, method: Unary<Req, Res>, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    method.call(client, req, new grpc.Metadata(), { deadline: Date.now() + DEADLINE_MS }, (err, res) =>
      err ? reject(new Error(err.details || err.message)) : resolve(res!),
    );
  });
}

const struct = (o: Json) => Struct.fromJavaScript(o as Parameters<typeof Struct.fromJavaScript>[0]);
const plain = (s: Struct | undefined): Json => (s ? (s.toJavaScript() as Json) : {});

/** Diff and Update carry the same fields: the URN, the id, the old outputs, the new inputs and (when known) the old inputs. */
function change<R extends provproto.DiffRequest | provproto.UpdateRequest>(
  req: R,
  u: string,
  id: string,
  olds: Json,
  news: Json,
  oldInputs: Json | undefined,
): R {
  req.setUrn(u);
  req.setId(id);
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  if (oldInputs) req.setOldInputs(struct(oldInputs));
  return req;
}

/** Spawns `node …/cmd/dynamic-provider 127.0.0.1:1` (or `opts.entry`) and connects once it prints its port. */
export async function startProviderHost(opts: HostOptions = {}): Promise<ProviderHost> {
  const entry =
    opts.entry ?? (opts.hostFrom ? require.resolve("@pulumi/pulumi/cmd/dynamic-provider", { paths: [opts.hostFrom] }) : HOST_ENTRY);
  const child = spawn(process.execPath, [entry, "127.0.0.1:1"], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, PULUMI_NODEJS_PROJECT: "cloudcost-test", ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  // The host prints its gRPC port as its first line.
  const port = await readyLine(
    child,
    "provider host",
    (line) => (/^\d+$/.test(line.trim()) ? Number(line.trim()) : undefined),
    () => stderr,
  );
  const address = `127.0.0.1:${port}`;
  const client = new provrpc.ResourceProviderClient(address, grpc.credentials.createInsecure());

  return {
    process: child,
    address,
    stderr: () => stderr,
    async configure(config) {
      const req = new provproto.ConfigureRequest();
      req.setArgs(struct(config));
      req.setAcceptsecrets(true);
      // Whether the provider takes secrets: the engine strips them from every later request when it does not.
      return (await call(client, client.configure, req)).getAcceptsecrets();
    },
    async check(u, olds, news) {
      const req = new provproto.CheckRequest();
      req.setUrn(u);
      req.setOlds(struct(olds));
      req.setNews(struct(news));
      const res = await call(client, client.check, req);
      return {
        inputs: plain(res.getInputs()),
        failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(u, id, olds, news, oldInputs) {
      const res = await call(client, client.diff, change(new provproto.DiffRequest(), u, id, olds, news, oldInputs));
      return { changes: CHANGES[res.getChanges()]!, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
    },
    async create(u, properties) {
      const req = new provproto.CreateRequest();
      req.setUrn(u);
      req.setProperties(struct(properties));
      const res = await call(client, client.create, req);
      return { id: res.getId(), properties: plain(res.getProperties()) };
    },
    async read(u, id, properties, inputs) {
      const req = new provproto.ReadRequest();
      req.setUrn(u);
      req.setId(id);
      req.setProperties(struct(properties));
      if (inputs) req.setInputs(struct(inputs));
      const res = await call(client, client.read, req);
      return {
        id: res.getId(),
        properties: plain(res.getProperties()),
        outputsMissing: res.getProperties() === undefined,
        inputs: res.getInputs() ? plain(res.getInputs()) : undefined,
      };
    },
    async update(u, id, olds, news, oldInputs) {
      const res = await call(client, client.update, change(new provproto.UpdateRequest(), u, id, olds, news, oldInputs));
      return plain(res.getProperties());
    },
    async delete(u, id, properties) {
      const req = new provproto.DeleteRequest();
      req.setUrn(u);
      req.setId(id);
      req.setProperties(struct(properties));
      await call(client, client.delete, req);
    },
    async stop() {
      client.close();
      await stopChild(child);
    },
  };
}

/** A host Configured with an API URL and token, as `pulumi up` would; stopped again when Configure fails. */
export async function startConfiguredHost(apiUrl: string, apiToken: string, opts: HostOptions = {}): Promise<ProviderHost> {
  const host = await startProviderHost(opts);
  try {
    await host.configure({ "cloudcost:apiUrl": apiUrl, "cloudcost:apiToken": secret(apiToken) });
    return host;
  } catch (err) {
    await host.stop();
    throw err;
  }
}

/**
 * Runs a plain Node program in `cwd` that registers one resource of each kind from `@cloudcost/pulumi`
 * under `setMocks`, and returns the `__provider` text each registration carried (also for a project
 * installed from a registry: everything resolves from `cwd`).
 */
export async function registeredProviderTexts(cwd: string): Promise<Record<ResourceKind, string>> {
  const { execFile } = await import("node:child_process");
  const script = `
    const pulumi = require("@pulumi/pulumi");
    const seen = {};
    pulumi.runtime.setMocks({ newResource: (a) => { seen[a.type.split(":").pop()] = a.inputs.__provider; return { id: a.name, state: {} }; }, call: (a) => a.inputs }, "p", "s", false);
    const { CloudGroup, BudgetAlert, ScheduledReport } = require("@cloudcost/pulumi");
    const g = new CloudGroup("g", { name: "g" });
    const a = new BudgetAlert("a", { name: "a", amount: 1 });
    const r = new ScheduledReport("r", { name: "r", report: "summary", schedule: { frequency: "daily", time: "09:00", timezone: "UTC" }, recipients: ["a@b.co"] });
    Promise.all([g, a, r].map((x) => new Promise((ok) => x.id.apply(ok)))).then(() => process.stdout.write(JSON.stringify(seen)));
  `;
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ["-e", script], { cwd, timeout: 30_000, killSignal: "SIGKILL" }, (err, out, errText) =>
      err ? reject(new Error(`${err.message}: ${errText}`)) : resolve(out),
    ),
  );
  return JSON.parse(stdout) as Record<ResourceKind, string>;
}

let installedTexts: Promise<Record<ResourceKind, string>> | undefined;

/**
 * The `__provider` text of each resource kind when `@cloudcost/pulumi` is consumed the way a user installs
 * it: the published files (package.json + dist) copied into a fresh `node_modules`. Computed once per
 * test process (it copies the package and starts a Node process that loads @pulumi/pulumi).
 */
export function installedProviderTexts(): Promise<Record<ResourceKind, string>> {
  installedTexts ??= providerTextsOfCopy();
  return installedTexts;
}

async function providerTextsOfCopy(): Promise<Record<ResourceKind, string>> {
  const { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-installed-"));
  try {
    const pkg = join(dir, "node_modules", "@cloudcost", "pulumi");
    mkdirSync(pkg, { recursive: true });
    cpSync(join(REPO_ROOT, "provider", "package.json"), join(pkg, "package.json"));
    cpSync(join(REPO_ROOT, "provider", "dist"), join(pkg, "dist"), { recursive: true });
    symlinkSync(join(REPO_ROOT, "api"), join(dir, "node_modules", "@cloudcost", "api"));
    symlinkSync(join(REPO_ROOT, "node_modules", "@pulumi"), join(dir, "node_modules", "@pulumi"));
    return await registeredProviderTexts(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
