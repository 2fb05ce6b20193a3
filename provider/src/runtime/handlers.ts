import { isDeepStrictEqual } from "node:util";
import { ApiError, type z } from "@cloudcost/api";
import type * as pulumi from "@pulumi/pulumi";
import { currentClient, useStackConfig } from "./clients";
import { failuresFrom } from "./failures";
import { canonicalJson, withoutReserved, type Props } from "./normalise";
import type { ResourceSpec } from "./resource-spec";
import { containsUnknown } from "./unknowns";

/** The runtime half of a dynamic provider: what the tiny serialized provider delegates to. */
export type Handlers = Required<pulumi.dynamic.ResourceProvider>;

/** `configure` of every resource kind: remembers the stack config; credentials are resolved per call. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  useStackConfig((key) => {
    try {
      return req.config.get(`cloudcost:${key}`);
    } catch {
      // The host passes an undefined config when Configure was never called; fall back to the environment.
      return undefined;
    }
  });
}

const withoutUnknowns = new WeakMap<z.ZodObject, Map<string, z.ZodObject>>();

/**
 * The schema without the fields that hold preview unknowns. zod compiles a parser per schema object on
 * first use, so the picked variants are kept (a handful per resource type) instead of being rebuilt on
 * every check; with nothing unknown (every `up`) it is the schema itself.
 */
function schemaOfKnown(schema: z.ZodObject, unknownKeys: readonly string[]): z.ZodObject {
  if (unknownKeys.length === 0) return schema;
  const byKeys = withoutUnknowns.get(schema) ?? new Map<string, z.ZodObject>();
  withoutUnknowns.set(schema, byKeys);
  const key = [...unknownKeys].sort().join(",");
  let picked = byKeys.get(key);
  if (!picked) {
    picked = schema.omit(Object.fromEntries(unknownKeys.filter((k) => k in schema.shape).map((k) => [k, true])) as Record<string, true> & Record<number, never>);
    byKeys.set(key, picked);
  }
  return picked;
}

/** Validates with the contract schema (fields holding preview unknowns are skipped) and normalises. */
export function check<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, news: Props): pulumi.dynamic.CheckResult {
  const normalised = spec.normalise(withoutReserved(news));
  const unknownKeys = Object.keys(normalised).filter((k) => containsUnknown(normalised[k]));
  const known = Object.fromEntries(Object.entries(normalised).filter(([k]) => !unknownKeys.includes(k)));
  const parsed = schemaOfKnown(spec.schema, unknownKeys).safeParse(known);
  if (!parsed.success) return { inputs: news, failures: failuresFrom(parsed.error, known, spec.typeName) };
  const checked = { ...normalised, ...(parsed.data as Props) };
  const failures = unknownKeys.length === 0 ? (spec.crossFieldFailures?.(checked as C) ?? []) : [];
  if (failures.length) return { inputs: news, failures };
  return { inputs: Object.fromEntries(Object.entries(checked).filter(([, v]) => v !== undefined)) };
}

/** Which inputs differ between stored outputs and new checked inputs; an unknown value counts as a change. */
export function changedKeys<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, olds: Props, news: Props): string[] {
  const [o, n] = [spec.normalise(olds), spec.normalise(news)];
  return spec.diffKeys.filter((k) => containsUnknown(n[k]) || !isDeepStrictEqual(canonical(o[k]), canonical(n[k])));
}

const canonical = (v: unknown): unknown => (v === undefined ? undefined : canonicalJson(v));

function isNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.status === 404;
}

/** Adds what a user can do about an authentication failure; the message never contains the credential. */
function explained(e: unknown): unknown {
  if (!(e instanceof ApiError)) return e;
  if (e.status === 401) return new Error(`${e.message}; the credentials were rejected (expired or revoked?): check cloudcost:apiToken or cloudcost:clientId/clientSecret`);
  if (e.status === 403) return new Error(`${e.message}; the token lacks a scope this operation needs (read for reads, write for changes)`);
  return e;
}

async function withHint<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw explained(e);
  }
}

/** Builds the seven provider operations from a resource spec. */
export function handlersFor<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>): Handlers {
  // Create and Update receive what Check returned (the engine sends nothing else): already validated,
  // normalised and defaulted by `spec.schema`, so it is not parsed a second time on every call.
  const checkedInputs = (inputs: Props): C => withoutReserved(inputs) as C;
  return {
    configure,
    check: async (_olds, news: Props) => check(spec, news),
    diff: async (_id, olds: Props, news: Props) => {
      // Every input can be changed in place (PATCH/PUT), so nothing ever forces a replacement.
      return { changes: changedKeys(spec, olds, news).length > 0, replaces: [] };
    },
    create: (inputs: Props) =>
      withHint(async () => {
        const client = currentClient();
        const checked = checkedInputs(inputs);
        const adoptId = checked.adoptId;
        const live = typeof adoptId === "string" ? await adopt(spec, adoptId, checked) : await spec.create(client, checked);
        return { id: live.id, outs: spec.outputs(live) };
      }),
    read: (id: string) =>
      withHint(async () => {
        try {
          const live = await spec.get(currentClient(), id);
          return { id, props: spec.outputs(live), inputs: spec.inputs(live) };
        } catch (e) {
          // Deleted outside Pulumi: an empty id tells the engine to drop it from state.
          if (isNotFound(e)) return { id: "", props: {} };
          throw e;
        }
      }),
    update: (id: string, olds: Props, news: Props) =>
      withHint(async () => {
        const client = currentClient();
        const checked = checkedInputs(news);
        const live = (await spec.update(client, id, checked, changedKeys(spec, olds, checked))) ?? (await spec.get(client, id));
        return { outs: spec.outputs(live) };
      }),
    delete: (id: string) =>
      withHint(async () => {
        try {
          await spec.remove(currentClient(), id);
        } catch (e) {
          // Already gone is what delete wants.
          if (!isNotFound(e)) throw e;
        }
      }),
  };
}

/** Takes over an existing object: read it, then change only what differs from the declared inputs. */
async function adopt<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, id: string, checked: C): Promise<L> {
  const client = currentClient();
  let live: L;
  try {
    live = await spec.get(client, id);
  } catch (e) {
    if (isNotFound(e)) throw new Error(`adoptId ${id}: no such ${spec.typeName} exists to adopt (it may have been deleted)`);
    throw e;
  }
  return (await spec.update(client, id, checked, changedKeys(spec, spec.outputs(live), checked))) ?? live;
}
