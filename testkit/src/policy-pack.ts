/**
 * Harness for the real policy pack process, spoken to over the Analyzer gRPC protocol as the Pulumi CLI
 * does (the flow tests use testkit's engine; test/engine runs the real CLI, built by scripts/pulumi-cli.js).
 *
 * API (also used by the benchmarks):
 * - `startPolicyPack({ env })` spawns `node @pulumi/pulumi/cmd/run-policy-pack 127.0.0.1:0 .` in `policies/`
 *   (it loads package.json `main`, the bundled `dist/pack.js`) and returns a {@link RunningPolicyPack}:
 *   - `info()`: GetAnalyzerInfo as plain data (every policy with its enforcement level and config schema);
 *   - `configure(file)`: what `--policy-pack-config <file>` does: schema defaults, the `all` key,
 *     per-policy levels and properties, then JSON-Schema validation (throws {@link PolicyConfigError}
 *     and sends nothing when invalid), then Configure; resolves with the config it sent;
 *   - `remediate(r)`, `analyze(r)`, `analyzeStack(rs)`: one round trip each, plain results;
 *   - `remediateAndAnalyze(r)`: Remediate, then Analyze the remediated properties, as the engine does;
 *   - `pluginInfo()`: the cheapest round trip (benchmark baseline); `stop()`.
 * - `declareResources(program, { preview })` runs a Pulumi program under `setMocks` and returns every
 *   registered resource exactly as the SDK sent it to the engine: type token, URN, inputs in wire form
 *   (secrets wrapped, unknowns as the sentinel), parent, dependencies and property dependencies;
 *   `properties` leaves out `__`-prefixed keys as the engine does, so a declared resource can be passed
 *   straight to `analyze`/`remediate`/`analyzeStack`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import * as analyzerRpc from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as analyzer from "@pulumi/pulumi/proto/analyzer_pb";
import * as pluginProto from "@pulumi/pulumi/proto/plugin_pb";
import * as resourceProto from "@pulumi/pulumi/proto/resource_pb";
import { getMonitor } from "@pulumi/pulumi/runtime/settings";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { z } from "zod";
import { readyLine, stopChild } from "./child-process";

/** The pack folder (`policies/`), found as the workspace package so the compiled benchmark finds it too. */
export const POLICY_PACK_DIR = dirname(require.resolve("@cloudcost/policies/package.json"));

/**
 * The pack runs its bundle (`dist/pack.js`, what `npm pack` ships). `tsc -b` alone does not write it, so a
 * bundle older than the pack's sources or the compiled workspace packages is made again before a start.
 */
function ensureBundle(): void {
  const bundle = join(POLICY_PACK_DIR, "dist", "pack.js");
  const newest = (dir: string): number => {
    if (!existsSync(dir)) return 0;
    return Math.max(
      0,
      ...readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => statSync(join(e.parentPath, e.name)).mtimeMs),
    );
  };
  const sources = Math.max(
    newest(join(POLICY_PACK_DIR, "src")),
    newest(join(POLICY_PACK_DIR, "..", "api", "dist")),
    newest(join(POLICY_PACK_DIR, "..", "provider", "dist")),
  );
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(POLICY_PACK_DIR, "scripts", "bundle.mjs")], { stdio: "pipe", timeout: 60_000 });
}

export type EnforcementLevel = "advisory" | "mandatory" | "remediate" | "disabled";
const LEVELS: Record<EnforcementLevel, analyzer.EnforcementLevel> = {
  advisory: analyzer.EnforcementLevel.ADVISORY,
  mandatory: analyzer.EnforcementLevel.MANDATORY,
  remediate: analyzer.EnforcementLevel.REMEDIATE,
  disabled: analyzer.EnforcementLevel.DISABLED,
};
const levelName = (l: analyzer.EnforcementLevel): EnforcementLevel =>
  (Object.keys(LEVELS) as EnforcementLevel[]).find((k) => LEVELS[k] === l)!;

export interface PolicyConfigSchema {
  properties: Record<string, Record<string, unknown>>;
  required: string[];
}
export interface PolicyInfo {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  configSchema?: PolicyConfigSchema;
}
export interface PackInfo {
  name: string;
  version: string;
  supportsConfig: boolean;
  policies: PolicyInfo[];
}

/** One policy's effective configuration, as sent in Configure. */
export interface PolicyConfig {
  enforcementLevel: EnforcementLevel;
  properties: Record<string, unknown>;
}
/** A `--policy-pack-config` file: per policy (or `all`), an enforcement level or an object of properties. */
export type PolicyPackConfigFile = Record<string, EnforcementLevel | ({ enforcementLevel?: EnforcementLevel } & Record<string, unknown>)>;

export class PolicyConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`policy pack configuration is invalid: ${problems.join("; ")}`);
  }
}

/** A resource as the engine describes it to the analyzer. `properties` are in wire form. */
export interface AnalyzerResourceInput {
  type: string;
  name: string;
  urn: string;
  properties: Record<string, unknown>;
  parent?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
}

export interface Diagnostic {
  policyName: string;
  message: string;
  enforcementLevel: EnforcementLevel;
  urn: string;
}
export interface AnalyzeResult {
  diagnostics: Diagnostic[];
  notApplicable: { policyName: string; reason: string }[];
}
export interface RemediateResult {
  remediations: { policyName: string; properties?: Record<string, unknown>; diagnostic: string }[];
  notApplicable: { policyName: string; reason: string }[];
}

export interface RunningPolicyPack {
  process: ChildProcess;
  info(): Promise<PackInfo>;
  configure(file?: PolicyPackConfigFile): Promise<Record<string, PolicyConfig>>;
  remediate(resource: AnalyzerResourceInput): Promise<RemediateResult>;
  analyze(resource: AnalyzerResourceInput): Promise<AnalyzeResult>;
  analyzeStack(resources: AnalyzerResourceInput[]): Promise<AnalyzeResult>;
  /** What the engine does per resource: Remediate, apply the last remediation's properties, then Analyze. */
  remediateAndAnalyze(resource: AnalyzerResourceInput): Promise<AnalyzeResult & { properties: Record<string, unknown> }>;
  pluginInfo(): Promise<string>;
  stop(): Promise<void>;
}

type Unary<Req, Res> = (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown;
function call<Req, Res>(fn: Unary<Req, Res>, req: Req): Promise<Res> {
  return new Promise((resolve, reject) => fn(req, (err, res) => (err ? reject(err) : resolve(res))));
}

/**
 * Starts the pack as the CLI does and connects once it prints its port. `dir`: a pack folder installed
 * elsewhere (its own `node_modules/@pulumi/pulumi` then runs it); default the workspace's `policies/`.
 */
export async function startPolicyPack(opts: { env?: Record<string, string>; dir?: string } = {}): Promise<RunningPolicyPack> {
  if (!opts.dir) ensureBundle();
  const dir = opts.dir ?? POLICY_PACK_DIR;
  const runner = require.resolve("@pulumi/pulumi/cmd/run-policy-pack", { paths: [dir] });
  const child = spawn(process.execPath, [runner, "127.0.0.1:0", "."], {
    cwd: dir,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  // The pack prints its gRPC port as its first line.
  const port = await readyLine(
    child,
    "policy pack",
    (line) => (/^\d+$/.test(line.trim()) ? line.trim() : undefined),
    () => stderr,
  );
  const client = new analyzerRpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    "grpc.max_send_message_length": 400 * 1024 * 1024,
  });
  let cachedInfo: PackInfo | undefined;
  const info = async () =>
    (cachedInfo ??= toPackInfo(await call<Empty, analyzer.AnalyzerInfo>(client.getAnalyzerInfo.bind(client), new Empty())));
  return {
    process: child,
    info,
    configure: async (file = {}) => {
      const reconciled = reconcilePolicyPackConfig(await info(), file);
      const req = new analyzer.ConfigureAnalyzerRequest();
      for (const [name, c] of Object.entries(reconciled)) {
        req
          .getPolicyconfigMap()
          .set(
            name,
            new analyzer.PolicyConfig()
              .setEnforcementlevel(LEVELS[c.enforcementLevel])
              .setProperties(Struct.fromJavaScript(c.properties as never)),
          );
      }
      await call<analyzer.ConfigureAnalyzerRequest, Empty>(client.configure.bind(client), req);
      return reconciled;
    },
    remediate: async (r) =>
      toRemediateResult(
        await call<analyzer.AnalyzeRequest, analyzer.RemediateResponse>(client.remediate.bind(client), toAnalyzeRequest(r)),
      ),
    analyze: async (r) =>
      toAnalyzeResult(await call<analyzer.AnalyzeRequest, analyzer.AnalyzeResponse>(client.analyze.bind(client), toAnalyzeRequest(r))),
    remediateAndAnalyze: async (r) => {
      const remediated = await call<analyzer.AnalyzeRequest, analyzer.RemediateResponse>(
        client.remediate.bind(client),
        toAnalyzeRequest(r),
      );
      const properties = toRemediateResult(remediated).remediations.reduce((props, rem) => rem.properties ?? props, r.properties);
      return {
        properties,
        ...toAnalyzeResult(
          await call<analyzer.AnalyzeRequest, analyzer.AnalyzeResponse>(
            client.analyze.bind(client),
            toAnalyzeRequest({ ...r, properties }),
          ),
        ),
      };
    },
    analyzeStack: async (rs) =>
      toAnalyzeResult(
        await call<analyzer.AnalyzeStackRequest, analyzer.AnalyzeResponse>(client.analyzeStack.bind(client), stackRequest(rs)),
      ),
    pluginInfo: async () => (await call<Empty, pluginProto.PluginInfo>(client.getPluginInfo.bind(client), new Empty())).getVersion(),
    stop: async () => {
      client.close();
      await stopChild(child);
    },
  };
}

function toPackInfo(res: analyzer.AnalyzerInfo): PackInfo {
  return {
    name: res.getName(),
    version: res.getVersion(),
    supportsConfig: res.getSupportsconfig(),
    policies: res.getPoliciesList().map((p) => {
      const schema = p.getConfigschema();
      return {
        name: p.getName(),
        description: p.getDescription(),
        enforcementLevel: levelName(p.getEnforcementlevel()),
        ...(schema
          ? {
              configSchema: {
                properties: (schema.getProperties()?.toJavaScript() ?? {}) as PolicyConfigSchema["properties"],
                required: schema.getRequiredList(),
              },
            }
          : {}),
      };
    }),
  };
}

// Own keys only: `"constructor" in LEVELS` is true too.
const isLevel = (v: unknown): v is EnforcementLevel => typeof v === "string" && Object.hasOwn(LEVELS, v);

/**
 * The CLI's `ReconcilePolicyPackConfig` (pulumi pkg/resource/analyzer/config.go): schema defaults (top-level
 * `default` of each property), then `all`, then each policy's level and properties (shallow merge), then
 * JSON-Schema validation of each policy's properties against `{type: object, properties, required}`.
 */
export function reconcilePolicyPackConfig(info: PackInfo, file: PolicyPackConfigFile): Record<string, PolicyConfig> {
  const problems: string[] = [];
  const result: Record<string, PolicyConfig> = {};
  for (const p of info.policies) {
    const defaults = Object.entries(p.configSchema?.properties ?? {}).filter(([, s]) => "default" in s);
    result[p.name] = { enforcementLevel: p.enforcementLevel, properties: Object.fromEntries(defaults.map(([k, s]) => [k, s.default])) };
  }
  const all = file.all;
  if (all !== undefined) {
    const level = typeof all === "string" ? all : all.enforcementLevel;
    if (level !== undefined && !isLevel(level)) problems.push(`all: "${String(level)}" is not a valid enforcement level`);
    else if (level) for (const c of Object.values(result)) c.enforcementLevel = level;
  }
  for (const [name, given] of Object.entries(file)) {
    if (name === "all") continue;
    const target = result[name];
    if (!target) continue; // the CLI ignores config for policies the pack does not have
    const { enforcementLevel, ...properties } = typeof given === "string" ? { enforcementLevel: given } : given;
    if (enforcementLevel !== undefined && !isLevel(enforcementLevel))
      problems.push(`${name}: "${String(enforcementLevel)}" is not a valid enforcement level`);
    else if (enforcementLevel) target.enforcementLevel = enforcementLevel;
    Object.assign(target.properties, properties);
  }
  for (const p of info.policies) {
    if (!p.configSchema) continue;
    const schema = z.fromJSONSchema({
      type: "object",
      properties: p.configSchema.properties,
      ...(p.configSchema.required.length ? { required: p.configSchema.required } : {}),
    } as never);
    const parsed = schema.safeParse(result[p.name]!.properties);
    if (!parsed.success)
      for (const issue of parsed.error.issues) problems.push(`${p.name}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  if (problems.length) throw new PolicyConfigError(problems);
  return result;
}

function options(): analyzer.AnalyzerResourceOptions {
  return new analyzer.AnalyzerResourceOptions()
    .setProtect(false)
    .setIgnorechangesList([])
    .setAliasesList([])
    .setAdditionalsecretoutputsList([]);
}

function toAnalyzeRequest(r: AnalyzerResourceInput): analyzer.AnalyzeRequest {
  return new analyzer.AnalyzeRequest()
    .setType(r.type)
    .setName(r.name)
    .setUrn(r.urn)
    .setProperties(Struct.fromJavaScript(r.properties as never))
    .setOptions(options());
}

// Built once per resource list: a benchmark re-sends the same 10,000 resources and measures the pack, not this encoding.
const stackRequests = new WeakMap<AnalyzerResourceInput[], analyzer.AnalyzeStackRequest>();
function stackRequest(rs: AnalyzerResourceInput[]): analyzer.AnalyzeStackRequest {
  let req = stackRequests.get(rs);
  if (!req) {
    req = new analyzer.AnalyzeStackRequest().setResourcesList(rs.map(toStackResource));
    stackRequests.set(rs, req);
  }
  return req;
}

function toStackResource(r: AnalyzerResourceInput): analyzer.AnalyzerResource {
  const res = new analyzer.AnalyzerResource()
    .setType(r.type)
    .setName(r.name)
    .setUrn(r.urn)
    .setProperties(Struct.fromJavaScript(r.properties as never))
    .setOptions(options())
    .setParent(r.parent ?? "")
    .setDependenciesList(r.dependencies ?? []);
  for (const [k, urns] of Object.entries(r.propertyDependencies ?? {}))
    res.getPropertydependenciesMap().set(k, new analyzer.AnalyzerPropertyDependencies().setUrnsList(urns));
  return res;
}

function notApplicable(list: analyzer.PolicyNotApplicable[]): AnalyzeResult["notApplicable"] {
  return list.map((n) => ({ policyName: n.getPolicyName(), reason: n.getReason() }));
}

function toAnalyzeResult(res: analyzer.AnalyzeResponse): AnalyzeResult {
  return {
    diagnostics: res.getDiagnosticsList().map((d) => ({
      policyName: d.getPolicyname(),
      message: d.getMessage(),
      enforcementLevel: levelName(d.getEnforcementlevel()),
      urn: d.getUrn(),
    })),
    notApplicable: notApplicable(res.getNotApplicableList()),
  };
}

function toRemediateResult(res: analyzer.RemediateResponse): RemediateResult {
  return {
    remediations: res.getRemediationsList().map((r) => ({
      policyName: r.getPolicyname(),
      ...(r.getProperties() ? { properties: r.getProperties()!.toJavaScript() as Record<string, unknown> } : {}),
      diagnostic: r.getDiagnostic(),
    })),
    notApplicable: notApplicable(res.getNotApplicableList()),
  };
}

// ---- Declaring real resources ----

/** A resource exactly as the Pulumi SDK registered it with the engine. */
export interface DeclaredResource extends AnalyzerResourceInput {
  /** Inputs in wire form, including `__provider` (the engine strips `__` keys before Analyze). */
  inputs: Record<string, unknown>;
}

type RegisterCallback = (err: Error | null, res?: resourceProto.RegisterResourceResponse) => void;
interface MockMonitorLike {
  registerResource(req: resourceProto.RegisterResourceRequest, cb: RegisterCallback): Promise<void>;
}

/** Project and stack `declareResources` runs programs under (stack config keys are `<project>:<key>`). */
export const DECLARE_PROJECT = "policy-test";
export const DECLARE_STACK = "dev";

/**
 * Runs `program` under `pulumi.runtime.setMocks` and captures each RegisterResource request the SDK sends.
 * In preview mode the mocks return no ids, so ids of created resources are unknown to their dependants,
 * as in a real `pulumi preview`; otherwise a resource's id is `ids[name]` or `<name>-id`.
 */
export async function declareResources(
  program: () => pulumi.Resource[] | Promise<pulumi.Resource[]>,
  opts: { preview?: boolean; ids?: Record<string, string> } = {},
): Promise<DeclaredResource[]> {
  const preview = opts.preview ?? false;
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: preview ? undefined : (opts.ids?.[args.name] ?? `${args.name}-id`), state: args.inputs }),
      call: () => ({}),
    },
    DECLARE_PROJECT,
    DECLARE_STACK,
    preview,
  );
  const monitor = getMonitor() as unknown as MockMonitorLike;
  const original = monitor.registerResource.bind(monitor);
  const declared: DeclaredResource[] = [];
  monitor.registerResource = (req, cb) =>
    original(req, (err, res) => {
      if (res) declared.push(fromRequest(req, res.getUrn()));
      cb(err, res);
    });
  const resources = await program();
  await Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
  return declared;
}

function fromRequest(req: resourceProto.RegisterResourceRequest, urn: string): DeclaredResource {
  const inputs = (req.getObject()?.toJavaScript() ?? {}) as Record<string, unknown>;
  const propertyDependencies: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((deps, key) => (propertyDependencies[key] = deps.getUrnsList()));
  return {
    type: req.getType(),
    name: req.getName(),
    urn,
    inputs,
    properties: withoutInternalKeys(inputs),
    parent: req.getParent(),
    dependencies: req.getDependenciesList(),
    propertyDependencies,
  };
}

/** The engine hides `__`-prefixed keys (e.g. `__provider`) from Analyze and AnalyzeStack. */
export function withoutInternalKeys(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !k.startsWith("__")));
}
