/**
 * A `pulumi.runtime.setMocks` engine that forwards every dynamic resource to a REAL dynamic-provider host
 * (provider-host.ts): a program runs for real, its resources are serialized for real, and the host makes
 * real HTTP calls. New resources go through Check then Create; `Resource.get(name, id)` lookups through
 * Read. Anything else (stack, component resources) is echoed back.
 *
 *   const host = await startProviderHost();
 *   await host.configure({ "cloudcost:apiUrl": url, "cloudcost:apiToken": secret(token) });
 *   const engine = new ForwardingMocks(host);
 *   pulumi.runtime.setMocks(engine, engine.project, engine.stack, false);
 *   const group = new CloudGroup("g", { name: "Platform" });
 *   const id = await outputValue(group.id);        // the id the sandbox assigned
 *   engine.resources                               // what was registered, with the `__provider` text
 */
import * as pulumi from "@pulumi/pulumi";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { ProviderHost } from "./provider-host";

type Json = Record<string, unknown>;

export interface ForwardedResource {
  type: string;
  name: string;
  urn: string;
  id: string;
  /** Inputs as the program registered them, including `__provider`. */
  inputs: Json;
  /** Outputs returned by the host (Create or Read). */
  state: Json;
  /** "create" for a new resource, "read" for a `.get` lookup. */
  via: "create" | "read";
}

/** What the engine does for a provider that does not accept secrets: send the plain values. */
function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value === null || typeof value !== "object") return value;
  const o = value as Json;
  if (o[specialSigKey] === specialSecretSig) return unwrapSecrets(o.value);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** Resolves an Output's value (only meaningful when not a preview). */
export function outputValue<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

/** Mocks whose `newResource` sends dynamic resources to the real host; failures from Check become errors. */
export class ForwardingMocks implements pulumi.runtime.Mocks {
  readonly resources: ForwardedResource[] = [];

  constructor(
    private readonly host: ProviderHost,
    readonly project = "cloudcost-test",
    readonly stack = "test",
  ) {}

  async newResource(args: pulumi.runtime.MockResourceArgs): Promise<pulumi.runtime.MockResourceResult> {
    if (!args.type.startsWith("pulumi-nodejs:dynamic"))
      return { id: args.custom ? `${args.name}-id` : undefined, state: args.inputs as Json };
    const urn = `urn:pulumi:${this.stack}::${this.project}::${args.type}::${args.name}`;
    const inputs = unwrapSecrets(args.inputs) as Json;
    if (args.id) {
      const read = await this.host.read(urn, args.id, inputs);
      if (read.id === "") throw new Error(`${args.type} ${args.id} does not exist`);
      return this.record({ type: args.type, name: args.name, urn, id: read.id, inputs, state: read.properties, via: "read" });
    }
    const checked = await this.host.check(urn, {}, inputs);
    if (checked.failures.length) throw new Error(`${args.name}: ${checked.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
    const created = await this.host.create(urn, checked.inputs);
    return this.record({ type: args.type, name: args.name, urn, id: created.id, inputs, state: created.properties, via: "create" });
  }

  call(args: pulumi.runtime.MockCallArgs): Json {
    return args.inputs as Json;
  }

  private record(r: ForwardedResource): pulumi.runtime.MockResourceResult {
    this.resources.push(r);
    return { id: r.id, state: r.state };
  }
}
