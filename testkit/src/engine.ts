/**
 * An engine stand-in that follows pulumi/pulumi's step generator and provider plugin rule by rule (each
 * rule, its Go source and the tests relying on it: testkit/README.md). It keeps a stack's state
 * (per URN: id, inputs, outputs, the provider config it was deployed with) and drives the REAL
 * dynamic-provider host (provider-host.ts) and, when given, the REAL policy pack (policy-pack.ts):
 *
 *   const engine = new Engine({ config: { "cloudcost:apiUrl": url, "cloudcost:apiToken": secret(token) }, policyPack });
 *   const program = () => [new BudgetAlert("a", { name: "A", amount: 1 }, { ignoreChanges: ["webhookUrl"] })];
 *   await engine.runProgram(program);             // `pulumi up`: Check, Remediate, Analyze, Create, AnalyzeStack
 *   await engine.refresh();                       // Read of every resource, state replaced
 *   await engine.runProgram(program);             // ignoreChanges, Check, Diff, Same/Update/Replace
 *   await engine.destroy();                       // Delete with the config stored in state
 *   await engine.stop();
 *
 * Programs run for real through {@link Engine.attach}: `pulumi.runtime.setMocks` with the mock monitor's
 * RegisterResource/ReadResource handed to this engine, so resource options (ignoreChanges,
 * deleteBeforeReplace) and property dependencies arrive as the SDK sends them.
 */
import { isDeepStrictEqual } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { getMonitor } from "@pulumi/pulumi/runtime/settings";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { AnalyzeResult, Diagnostic, RunningPolicyPack } from "./policy-pack";
import { startProviderHost, type HostOptions, type ProviderHost } from "./provider-host";

type Json = Record<string, unknown>;

export interface ResourceOptions {
  ignoreChanges?: string[];
  /** Unset: the provider's Diff decides (step_generator.go continueStepsFromDiff). */
  deleteBeforeReplace?: boolean;
  /** Output keys the engine marks secret after each step (step_executor.go continueExecuteStep). */
  additionalSecretOutputs?: string[];
}

/** What a program registers: inputs in wire form (secrets wrapped, `__provider` included). */
export interface Goal {
  type: string;
  name: string;
  inputs: Json;
  options?: ResourceOptions;
  propertyDependencies?: Record<string, string[]>;
  dependencies?: string[];
}

export interface StoredResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** Wire form: values the engine knows to be secret stay wrapped. */
  inputs: Json;
  outputs: Json;
  /** The provider configuration this resource was last deployed with (refresh and destroy use it). */
  providerConfig: Json;
  options: ResourceOptions;
  propertyDependencies: Record<string, string[]>;
  dependencies: string[];
  /**
   * Read by `Resource.get`, not managed: kept in state, refreshed like the others, but never deleted — the
   * engine drops it from state when no program reads it any more and on destroy (step.go DeleteStep, `discard`).
   */
  external?: boolean;
}

export type StepOp = "create" | "same" | "update" | "replace" | "delete" | "read" | "discard" | "refresh" | "refresh-gone";
export interface StepRecord {
  op: StepOp;
  urn: string;
  /** For replace: the order of the two halves. */
  order?: "delete-before-create" | "create-before-delete";
}

export interface UpResult {
  steps: StepRecord[];
  /** Per-resource Analyze diagnostics and AnalyzeStack diagnostics. */
  diagnostics: Diagnostic[];
  /** True when a mandatory policy violation failed the update (the engine's exit status). */
  failed: boolean;
}

export interface RefreshResult {
  urn: string;
  gone: boolean;
  inputsChanged: boolean;
  outputsChanged: boolean;
}

export class PolicyViolation extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(`mandatory policy violations: ${diagnostics.map((d) => `${d.policyName}: ${d.message}`).join("; ")}`);
  }
}

export interface EngineOptions {
  /** The program's stack config (namespaced keys, secrets wrapped with provider-host.ts `secret`). */
  config: Json;
  /** Environment of every provider host this engine starts (credentials may come from there). */
  env?: Record<string, string>;
  cwd?: string;
  policyPack?: RunningPolicyPack;
  project?: string;
  stack?: string;
}

// ---- wire-form helpers (pkg/resource/plugin/provider_plugin.go) ----

function isSecret(v: unknown): v is { value: unknown } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && (v as Json)[specialSigKey] === specialSecretSig;
}
const wrap = (value: unknown): Json => ({ [specialSigKey]: specialSecretSig, value });

/** MarshalProperties with KeepSecrets=false: what a provider that does not accept secrets receives. */
export function stripSecrets(value: unknown): unknown {
  if (isSecret(value)) return stripSecrets(value.value);
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripSecrets(v)]));
}
const strip = (o: Json): Json => stripSecrets(o) as Json;

function containsSecrets(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecrets);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsSecrets);
  return false;
}
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v) && !isSecret(v);

/** provider_plugin.go annotateSecrets: a result property is secret where the same property sent was. */
export function annotateSecrets(outs: Json, ins: Json): Json {
  const result: Json = { ...outs };
  for (const [key, inValue] of Object.entries(ins)) {
    if (!(key in result)) continue;
    const outValue = result[key];
    if (isObject(outValue) && isObject(inValue)) result[key] = annotateSecrets(outValue, inValue);
    else if (!isSecret(outValue) && containsSecrets(inValue)) result[key] = wrap(outValue);
  }
  return result;
}

/** step_generator.go processIgnoreChanges: each ignored path takes the OLD inputs' value, or is removed when they lack it. */
export function processIgnoreChanges(inputs: Json, oldInputs: Json, ignoreChanges: readonly string[]): Json {
  const result = structuredClone(inputs);
  for (const path of ignoreChanges) {
    const keys = path.split(".");
    let src: unknown = oldInputs;
    let dst: Json = result;
    for (let i = 0; i < keys.length - 1; i++) {
      src = isObject(src) ? src[keys[i]!] : undefined;
      const next = dst[keys[i]!];
      if (!isObject(next)) {
        dst = {};
        break;
      }
      dst = next;
    }
    const last = keys[keys.length - 1]!;
    const old = isObject(src) ? src[last] : undefined;
    if (old === undefined) delete dst[last];
    else dst[last] = structuredClone(old);
  }
  return result;
}

/** The engine hides `__`-prefixed keys from Analyze and AnalyzeStack (analyzer_plugin.go SkipInternalKeys). */
const withoutInternal = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith("__")));

export class Engine {
  readonly state = new Map<string, StoredResource>();
  /** Every registration this engine saw (program tests look up ids and `__provider` texts here). */
  readonly resources: { type: string; name: string; urn: string; id: string; inputs: Json; state: Json; via: "create" | "read" }[] = [];
  readonly project: string;
  readonly stack: string;
  private readonly hosts = new Map<string, Promise<{ host: ProviderHost; acceptSecrets: boolean }>>();
  /** Hosts of earlier operations, stopping. */
  private readonly retiring: Promise<void>[] = [];
  private config: Json;
  private run:
    | {
        preview: boolean;
        replaceTargets: Set<string>;
        registered: Set<string>;
        news: Map<string, StoredResource>;
        steps: StepRecord[];
        diagnostics: Diagnostic[];
        pendingDeletes: StoredResource[];
      }
    | undefined;

  private readonly opts: EngineOptions;

  constructor(opts: EngineOptions) {
    this.opts = { ...opts };
    this.config = opts.config;
    this.project = opts.project ?? "cloudcost-test";
    this.stack = opts.stack ?? "test";
  }

  /** Changes the program's stack config (`pulumi config set`); the state keeps what each resource was deployed with. */
  setConfig(config: Json): void {
    this.config = config;
  }

  /**
   * A new command in another shell (`CLOUDCOST_API_TOKEN=… pulumi destroy`): provider processes are started
   * afresh with this environment; the state and its stored provider configs stay.
   */
  async setEnv(env: Record<string, string>): Promise<void> {
    await this.stop();
    this.opts.env = env;
  }

  urnOf(type: string, name: string): string {
    return `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`;
  }

  /** One host per distinct provider configuration, configured as the engine configures a provider (Registry.Same/Create). */
  async hostFor(config: Json): Promise<{ host: ProviderHost; acceptSecrets: boolean }> {
    const key = JSON.stringify(config);
    let entry = this.hosts.get(key);
    if (!entry) {
      entry = (async () => {
        const hostOpts: HostOptions = { env: this.opts.env, cwd: this.opts.cwd };
        const host = await startProviderHost(hostOpts);
        const acceptSecrets = await host.configure(config);
        return { host, acceptSecrets };
      })();
      this.hosts.set(key, entry);
    }
    return entry;
  }

  /** Secrets are removed before a provider that did not accept them at Configure sees a value. */
  private async provider(config: Json): Promise<{ host: ProviderHost; send: (o: Json) => Json }> {
    const { host, acceptSecrets } = await this.hostFor(config);
    return { host, send: acceptSecrets ? (o) => o : strip };
  }

  // ---- up ----

  /** Starts an update: registrations follow through {@link register}, then {@link finish}. */
  begin(opts: { preview?: boolean; replaceTargets?: string[] } = {}): void {
    this.run = {
      preview: opts.preview ?? false,
      replaceTargets: new Set(opts.replaceTargets ?? []),
      registered: new Set(),
      news: new Map(),
      steps: [],
      diagnostics: [],
      pendingDeletes: [],
    };
  }

  /**
   * One RegisterResource, as step_generator.go continueStepsFromImport + generateStepsFromDiff +
   * continueStepsFromDiff decide it. Resolves with the resource's state after the step.
   */
  async register(goal: Goal): Promise<StoredResource> {
    const run = this.current();
    const urn = this.urnOf(goal.type, goal.name);
    run.registered.add(urn);
    const old = this.state.get(urn);
    const options = goal.options ?? {};
    const config = this.config;
    const { host, send } = await this.provider(config);
    const targetedReplace = run.replaceTargets.has(urn);

    // ignoreChanges: ignored paths take the value of the OLD (stored) inputs before Check.
    let inputs = old ? processIgnoreChanges(goal.inputs, old.inputs, options.ignoreChanges ?? []) : goal.inputs;
    // Check: a targeted replace ignores the old state (no olds, goal properties).
    const checked =
      old && !targetedReplace
        ? await host.check(urn, send(old.inputs), send(inputs))
        : await host.check(urn, {}, send(old ? goal.inputs : inputs));
    if (checked.failures.length) throw new Error(`${goal.name}: ${checked.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
    inputs = annotateSecrets(checked.inputs, inputs);

    // Analyzers: Remediate first (its properties become the inputs, with no second Check), then Analyze.
    inputs = await this.analyze(goal, urn, inputs);

    const base = {
      urn,
      type: goal.type,
      name: goal.name,
      options,
      propertyDependencies: goal.propertyDependencies ?? {},
      dependencies: goal.dependencies ?? [],
    };
    if (!old) {
      const created = await this.create(urn, inputs, config);
      run.steps.push({ op: "create", urn });
      return this.store({ ...base, ...created, inputs, providerConfig: config }, "create");
    }

    // Diff: a targeted replace never asks the provider (step_generator.go `diff`).
    const diff = targetedReplace
      ? { changes: "some" as const, replaces: ["id"], deleteBeforeReplace: false }
      : await host.diff(urn, old.id, send(old.outputs), send(inputs), send(old.inputs));
    let changes = diff.changes;
    if (changes === "unknown") changes = isDeepStrictEqual(strip(old.inputs), strip(inputs)) ? "none" : "some"; // diffResource
    if (changes === "none") {
      // Same step: new inputs, the OLD outputs and id (step.go SameStep.Apply).
      run.steps.push({ op: "same", urn });
      return this.store({ ...base, id: old.id, outputs: old.outputs, inputs, providerConfig: config }, "create");
    }
    if (diff.replaces.length === 0) {
      const outs = run.preview
        ? inputs
        : annotateSecrets(await host.update(urn, old.id, send(old.outputs), send(inputs), send(old.inputs)), inputs);
      run.steps.push({ op: "update", urn });
      return this.store({ ...base, id: old.id, outputs: outs, inputs, providerConfig: config }, "create");
    }
    // Replace: Check again without olds (defaults recomputed), unless this is a targeted replace.
    if (!targetedReplace) {
      const again = await host.check(urn, {}, send(goal.inputs));
      if (again.failures.length) throw new Error(`${goal.name}: ${again.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
      inputs = annotateSecrets(again.inputs, goal.inputs);
    }
    const deleteFirst = options.deleteBeforeReplace ?? diff.deleteBeforeReplace;
    if (deleteFirst) {
      await this.deleteResource(old);
      const created = await this.create(urn, inputs, config);
      run.steps.push({ op: "replace", urn, order: "delete-before-create" });
      return this.store({ ...base, ...created, inputs, providerConfig: config }, "create");
    }
    const created = await this.create(urn, inputs, config);
    run.pendingDeletes.push(old);
    run.steps.push({ op: "replace", urn, order: "create-before-delete" });
    return this.store({ ...base, ...created, inputs, providerConfig: config }, "create");
  }

  /**
   * `Resource.get(name, id)`: a read step (step.go ReadStep.Apply) with the program's inputs as inputs AND state.
   * The engine keeps what it read in state as an external resource (step_generator.go GenerateReadSteps).
   */
  async read(goal: Goal & { id: string }): Promise<StoredResource> {
    const urn = this.urnOf(goal.type, goal.name);
    this.run?.registered.add(urn);
    const { host, send } = await this.provider(this.config);
    const res = await host.read(urn, goal.id, send(goal.inputs), send(goal.inputs));
    // The only judgement the engine makes: no outputs at all means "does not exist".
    if (res.outputsMissing) throw new Error(`resource '${goal.id}' does not exist`);
    this.run?.steps.push({ op: "read", urn });
    const outputs = annotateSecrets(res.properties, goal.inputs);
    const stored: StoredResource = {
      urn,
      type: goal.type,
      name: goal.name,
      id: res.id || goal.id,
      inputs: goal.inputs,
      outputs,
      providerConfig: this.config,
      options: {},
      propertyDependencies: {},
      dependencies: [],
      external: true,
    };
    if (this.run) {
      this.run.news.set(urn, stored);
      if (!this.run.preview) this.state.set(urn, stored);
    }
    this.resources.push({ type: goal.type, name: goal.name, urn, id: stored.id, inputs: goal.inputs, state: outputs, via: "read" });
    return stored;
  }

  /** Ends the update: deletes of what the program no longer declares and of replaced objects, then AnalyzeStack. */
  async finish(): Promise<UpResult> {
    const run = this.current();
    try {
      for (const old of run.pendingDeletes) await this.deleteResource(old);
      for (const r of [...this.state.values()].reverse()) {
        if (run.registered.has(r.urn)) continue;
        // An external (read) resource is only forgotten: Pulumi never deletes what it did not create.
        if (!r.external) await this.deleteResource(r);
        if (!run.preview) this.state.delete(r.urn);
        run.steps.push({ op: r.external ? "discard" : "delete", urn: r.urn });
      }
      if (this.opts.policyPack) {
        // AnalyzeStack sees each resource's final OUTPUTS (step_generator.go AnalyzeResources, over `news`;
        // in a preview a create's outputs are its checked inputs).
        const resources = [...run.news.values()];
        const result = await this.opts.policyPack.analyzeStack(
          resources.map((r) => ({
            type: r.type,
            name: r.name,
            urn: r.urn,
            properties: withoutInternal(r.outputs),
            dependencies: r.dependencies,
            propertyDependencies: r.propertyDependencies,
          })),
        );
        run.diagnostics.push(...result.diagnostics);
      }
      return { steps: run.steps, diagnostics: run.diagnostics, failed: run.diagnostics.some((d) => d.enforcementLevel === "mandatory") };
    } finally {
      this.run = undefined;
    }
  }

  private current(): NonNullable<Engine["run"]> {
    if (!this.run) throw new Error("no update in progress: call begin() or up()");
    return this.run;
  }

  private async analyze(goal: Goal, urn: string, checked: Json): Promise<Json> {
    const pack = this.opts.policyPack;
    if (!pack) return checked;
    let inputs = checked;
    // Remediate sees internal keys (SkipInternalKeys: false); each remediation's properties replace the inputs.
    const remediated = await pack.remediate({ type: goal.type, name: goal.name, urn, properties: inputs });
    for (const r of remediated.remediations) if (r.properties) inputs = r.properties;
    const analyzed: AnalyzeResult = await pack.analyze({ type: goal.type, name: goal.name, urn, properties: withoutInternal(inputs) });
    // Analyze answers without a URN; the engine attributes each diagnostic to the resource it analyzed.
    const diagnostics = analyzed.diagnostics.map((d) => ({ ...d, urn }));
    const run = this.current();
    run.diagnostics.push(...diagnostics);
    // A mandatory violation makes the resource invalid, except in a preview, which goes on to show
    // everything (step_generator.go analyzeAll / analyzeResource: "and we are not in dry-run mode").
    const mandatory = diagnostics.filter((d) => d.enforcementLevel === "mandatory");
    if (mandatory.length && !run.preview) throw new PolicyViolation(mandatory);
    return inputs;
  }

  private async create(urn: string, inputs: Json, config: Json): Promise<{ id: string; outputs: Json }> {
    // A preview's create step: outputs are the checked inputs, the id is not known.
    if (this.current().preview) return { id: "", outputs: inputs };
    const { host, send } = await this.provider(config);
    const created = await host.create(urn, send(inputs));
    return { id: created.id, outputs: annotateSecrets(created.properties, inputs) };
  }

  private async deleteResource(r: StoredResource): Promise<void> {
    if (this.run?.preview) return;
    // Deletes use the provider configuration stored with the resource.
    const { host, send } = await this.provider(r.providerConfig);
    await host.delete(r.urn, r.id, send(r.outputs));
  }

  private store(stepped: StoredResource, via: "create"): StoredResource {
    const run = this.current();
    const secretKeys = stepped.options.additionalSecretOutputs ?? [];
    const outputs = Object.fromEntries(
      Object.entries(stepped.outputs).map(([k, v]) => [k, secretKeys.includes(k) && !isSecret(v) ? wrap(v) : v]),
    );
    const r = { ...stepped, outputs };
    run.news.set(r.urn, r);
    if (!run.preview) this.state.set(r.urn, r);
    this.resources.push({ type: r.type, name: r.name, urn: r.urn, id: r.id, inputs: r.inputs, state: r.outputs, via });
    return r;
  }

  // ---- refresh and destroy ----

  /** `pulumi refresh`: Read each resource with ITS stored config; what Read returns replaces inputs and outputs (step.go RefreshStep.Apply). */
  async refresh(): Promise<RefreshResult[]> {
    this.newOperation();
    const results: RefreshResult[] = [];
    for (const r of [...this.state.values()]) {
      const { host, send } = await this.provider(r.providerConfig);
      const res = await host.read(r.urn, r.id, send(r.outputs), send(r.inputs));
      if (res.id === "") {
        this.state.delete(r.urn);
        results.push({ urn: r.urn, gone: true, inputsChanged: true, outputsChanged: true });
        continue;
      }
      const inputs = res.inputs ? annotateSecrets(res.inputs, r.inputs) : r.inputs;
      const outputs = annotateSecrets(res.properties, r.outputs);
      results.push({
        urn: r.urn,
        gone: false,
        inputsChanged: !isDeepStrictEqual(inputs, r.inputs),
        outputsChanged: !isDeepStrictEqual(outputs, r.outputs),
      });
      this.state.set(r.urn, { ...r, id: res.id, inputs, outputs });
    }
    return results;
  }

  /** `pulumi destroy`: every resource deleted in reverse order, each with the config stored in state (external ones only forgotten). */
  async destroy(): Promise<void> {
    for (const r of [...this.state.values()].reverse()) {
      if (!r.external) await this.deleteResource(r);
      this.state.delete(r.urn);
    }
  }

  async stop(): Promise<void> {
    this.newOperation();
    await Promise.all(this.retiring.splice(0));
  }

  /**
   * The CLI starts provider plugins afresh for every operation (its plugin context lives for one `up`,
   * `preview` or `refresh`), and the provider relies on it: a process's listings serve its Reads for the
   * rest of its life (provider/src/runtime/refresh-listing.ts). So a refresh here gets new hosts too (an
   * update keeps them: tests hold the host of a deployment), and the old ones stop in the background
   * (awaited by {@link stop}).
   */
  private newOperation(): void {
    // A host that failed to start has already failed whoever awaited it.
    for (const entry of this.hosts.values()) this.retiring.push(entry.then(({ host }) => host.stop()).catch(() => undefined));
    this.hosts.clear();
  }

  // ---- running real programs ----

  /**
   * Runs `program` as one update: `setMocks` for the SDK, with the mock monitor's RegisterResource and
   * ReadResource answered by this engine (resource options and property dependencies as the SDK sent
   * them). Resolves once every resource the program returned is registered, after deletes and AnalyzeStack.
   */
  async runProgram(
    program: () => unknown,
    opts: { preview?: boolean; replaceTargets?: string[] } = {},
  ): Promise<UpResult & { exports: unknown }> {
    const preview = opts.preview ?? false;
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      this.project,
      this.stack,
      preview,
    );
    this.attach();
    this.begin(opts);
    const run = this.run;
    let failure: unknown;
    const failed = new Promise<never>((_, reject) => (this.onError = reject));
    failed.catch((e: unknown) => (failure = e));
    try {
      const exports = await Promise.race([Promise.resolve(program()), failed]);
      await Promise.race([settled(exports), failed]);
      await this.idle();
      if (failure) throw failure;
      return { ...(await this.finish()), exports };
    } catch (e) {
      if (this.run === run) this.run = undefined;
      throw e;
    } finally {
      this.onError = undefined;
    }
  }

  /**
   * A long-lived update for tests that declare resources one by one (startDeployment): the mocks are set,
   * every registration goes through {@link register}, and a failed step is answered to the SDK as an error.
   */
  async open(): Promise<void> {
    await pulumi.runtime.setMocks(
      { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
      this.project,
      this.stack,
      false,
    );
    this.onError = undefined;
    this.attach();
    this.begin();
  }

  private onError: ((e: unknown) => void) | undefined;
  private inFlight = new Set<Promise<unknown>>();

  private async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** Hands the current mock monitor's RegisterResource/ReadResource to this engine (programs declared after this). */
  attach(): void {
    const monitor = getMonitor() as unknown as MonitorLike;
    monitor.registerResource = (req, cb) => this.track(this.fromRegister(req), cb, (s) => registerResponse(s));
    monitor.readResource = (req, cb) => this.track(this.fromRead(req), cb, (s) => readResponse(s));
  }

  private track<R>(
    work: Promise<StoredResource | undefined>,
    cb: (err: Error | null, res?: R) => void,
    respond: (s: StoredResource) => R,
  ): void {
    const p = work.then(
      (s) => cb(null, s ? respond(s) : undefined),
      // Under runProgram the engine ends the program on a failed step (answering the SDK would only surface
      // the error a second time, as an unhandled rejection); a long-lived update answers it to the SDK.
      (e: unknown) => (this.onError ? this.onError(e) : cb(e instanceof Error ? e : new Error(String(e)))),
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async fromRegister(req: resproto.RegisterResourceRequest): Promise<StoredResource | undefined> {
    const inputs = (req.getObject()?.toJavaScript() ?? {}) as Json;
    const urn = this.urnOf(req.getType(), req.getName());
    if (!req.getCustom() || !req.getType().startsWith("pulumi-nodejs:dynamic")) {
      // Component resources and the stack: echoed, as the engine records them without a provider.
      return {
        urn,
        type: req.getType(),
        name: req.getName(),
        id: "",
        inputs,
        outputs: inputs,
        providerConfig: {},
        options: {},
        propertyDependencies: {},
        dependencies: [],
      };
    }
    const propertyDependencies: Record<string, string[]> = {};
    req.getPropertydependenciesMap().forEach((deps, key) => (propertyDependencies[key] = deps.getUrnsList()));
    const options: ResourceOptions = {
      ignoreChanges: req.getIgnorechangesList(),
      additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    };
    if (req.getDeletebeforereplacedefined()) options.deleteBeforeReplace = req.getDeletebeforereplace();
    return this.register({
      type: req.getType(),
      name: req.getName(),
      inputs,
      options,
      propertyDependencies,
      dependencies: req.getDependenciesList(),
    });
  }

  private async fromRead(req: resproto.ReadResourceRequest): Promise<StoredResource> {
    const inputs = (req.getProperties()?.toJavaScript() ?? {}) as Json;
    return this.read({ type: req.getType(), name: req.getName(), inputs, id: req.getId() });
  }
}

type Callback<R> = (err: Error | null, res?: R) => void;
interface MonitorLike {
  registerResource(req: resproto.RegisterResourceRequest, cb: Callback<resproto.RegisterResourceResponse>): void;
  readResource(req: resproto.ReadResourceRequest, cb: Callback<resproto.ReadResourceResponse>): void;
}

function registerResponse(s: StoredResource): resproto.RegisterResourceResponse {
  const res = new resproto.RegisterResourceResponse();
  res.setUrn(s.urn);
  res.setId(s.id);
  res.setObject(Struct.fromJavaScript(s.outputs as never));
  return res;
}

function readResponse(s: StoredResource): resproto.ReadResourceResponse {
  const res = new resproto.ReadResourceResponse();
  res.setUrn(s.urn);
  res.setProperties(Struct.fromJavaScript(s.outputs as never));
  return res;
}

/** Waits for every Output/Resource reachable from a program's exports to have its URN. */
async function settled(value: unknown, seen = new Set<unknown>()): Promise<void> {
  if (value === null || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  if (pulumi.Resource.isInstance(value)) {
    await new Promise((resolve) => value.urn.apply(resolve));
    return;
  }
  if (pulumi.Output.isInstance(value)) return;
  if (Array.isArray(value)) {
    for (const v of value) await settled(v, seen);
    return;
  }
  for (const v of Object.values(value)) await settled(v, seen);
}
