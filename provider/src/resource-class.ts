import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./dynamic-provider";
import { URN_KEY } from "./runtime/create-key";

/** Pulumi's type token of a resource kind: what policies (`validateResourceOfType`) and `isInstance` match on. */
export type TypeToken<K extends ResourceKind> = `pulumi-nodejs:dynamic/cloudcost:${K}`;

/** The static side of {@link cloudCostResource}'s base class (declared: Pulumi's own class has private members). */
export type CloudCostResourceClass<K extends ResourceKind> = (abstract new (
  name: string,
  inputs: Record<string, unknown>,
  outputs: readonly string[],
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource) & {
  readonly __pulumiType: TypeToken<K>;
  /** Read-only lookup of an existing object by id: its outputs are live, and Pulumi never changes or deletes it. */
  get<R>(
    this: new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => R,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): R;
  isInstance<R>(this: abstract new (...args: never[]) => R, obj: unknown): obj is R;
};

/**
 * The base every resource class of the provider extends: its type token, the registration (the inputs the
 * class passes, plus `undefined` for each output so the engine fills it in), the read-only `get` and
 * `isInstance`. A class adds only its argument and output types and what is its own (secrets, replace order).
 */
export function cloudCostResource<K extends ResourceKind>(kind: K, provider: pulumi.dynamic.ResourceProvider): CloudCostResourceClass<K> {
  const typeToken: TypeToken<K> = `pulumi-nodejs:dynamic/cloudcost:${kind}`;
  abstract class CloudCostResource extends pulumi.dynamic.Resource {
    static readonly __pulumiType = typeToken;

    constructor(name: string, inputs: Record<string, unknown>, outputs: readonly string[], opts?: pulumi.CustomResourceOptions) {
      // The URN travels as an input because the dynamic-provider host gives Check and Create none: it names
      // the logical create (runtime/create-key.ts). Not for `get` (opts.id), which creates nothing.
      const urn = opts?.id === undefined ? { [URN_KEY]: pulumi.createUrn(name, typeToken, opts?.parent) } : {};
      super(provider, name, { ...inputs, ...urn, ...Object.fromEntries(outputs.map((key) => [key, undefined])) }, opts, "cloudcost", kind);
    }

    static get<R>(
      this: new (name: string, args: never, opts?: pulumi.CustomResourceOptions) => R,
      name: string,
      id: pulumi.Input<pulumi.ID>,
      opts?: pulumi.CustomResourceOptions,
    ): R {
      // Every input left undefined: the engine calls Read only, which returns the live object.
      return new this(name, {} as never, { ...opts, id });
    }

    static override isInstance<R>(this: abstract new (...args: never[]) => R, obj: unknown): obj is R {
      return pulumi.Resource.isInstance(obj) && (obj as unknown as { __pulumiType: string }).__pulumiType === typeToken;
    }
  }
  return CloudCostResource;
}

/** The declared inputs of `args`, by name: a key a JavaScript caller adds that the class does not declare is not sent. */
export function inputsOf<A extends object>(args: A, keys: readonly (keyof A & string)[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, args[key]]));
}
