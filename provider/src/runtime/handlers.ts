import { isDeepStrictEqual } from "node:util";
import { ApiError, z } from "@cloudcost/api";
import type * as pulumi from "@pulumi/pulumi";
import { currentClient, logRequestsTo, useStackConfig } from "./clients";
import { engineAddressOf, engineRequestLog } from "./engine-log";
import { checkedApiUrl, type ConfigLookup } from "./settings";
import { failuresFrom } from "./failures";
import { ORGANIZATION_KEY, organizationOf } from "./organization";
import { canonicalJson, withoutReserved, type Props } from "./normalise";
import type { ResourceSpec } from "./resource-spec";
import { containsUnknown } from "./unknowns";
import { liveForRead, wroteObject } from "./refresh-listing";
import { userFacing } from "./user-facing-error";
import { CREATE_KEY, URN_KEY, createKey } from "./create-key";
import { heldByALaterCreate, keptMark, markGivenBack } from "./given-back";
import { serviceFailures } from "./service-check";

/** The runtime half of a dynamic provider: what the tiny serialized provider delegates to. */
export type Handlers = Required<pulumi.dynamic.ResourceProvider>;

/**
 * `configure` of every resource kind: remembers the stack config; credentials are resolved per call. It runs
 * in the dynamic-provider host, whose arguments end with the engine's address: the request log goes there.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  logToEngineOnce();
  configureFrom((key: string): string | undefined => {
    try {
      return req.config.get(`cloudcost:${key}`);
    } catch {
      // The host passes an undefined config when Configure was never called; fall back to the environment.
      return undefined;
    }
  });
}

let loggingToEngine = false;

/** The script of @pulumi/pulumi's dynamic-provider host (`node …/cmd/dynamic-provider/index.js <flags> <engine>`). */
const DYNAMIC_PROVIDER_HOST = /[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/;

function logToEngineOnce(): void {
  if (loggingToEngine) return;
  loggingToEngine = true;
  // Anywhere else (a test calling the handlers in its own process) the arguments are not the engine's.
  if (!DYNAMIC_PROVIDER_HOST.test(process.argv[1] ?? "")) return;
  const address = engineAddressOf(process.argv.slice(2));
  if (address !== undefined) logRequestsTo(engineRequestLog(address));
}

/**
 * What both front doors configure with: the dynamic host's stack config, or the native plugin's provider
 * inputs. A wrong apiUrl fails here, naming the value to set; credentials are resolved per call.
 */
export function configureFrom(config: ConfigLookup): void {
  checkedApiUrl(config);
  useStackConfig(config);
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
    // Rebuilt from the shape, not `schema.omit`: zod refuses omit on a schema with refinements (the contract's
    // cross-field rules, issue 27), and those rules cannot be judged while a field they read is unknown anyway.
    const known = Object.entries(schema.shape).filter(([k]) => !unknownKeys.includes(k));
    picked = z.object(Object.fromEntries(known)).strict();
    byKeys.set(key, picked);
  }
  return picked;
}

/**
 * The create key the checked inputs carry: derived (./create-key) when there are no stored inputs — every
 * create's inputs come from such a Check (pulumi step_generator.go) — and for a resource already in state the
 * key it has (none for state older than keys), so its inputs stay as stored, refresh after refresh.
 */
function keyFor<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, inputs: Props, identity: CreateIdentity): Props {
  const { urn, olds = {} } = identity;
  if (Object.keys(withoutReserved(olds)).length > 0) return keptKey(olds);
  const key = typeof urn === "string" ? createKey(urn, withoutSecrets(spec, inputs)) : undefined;
  return key === undefined ? {} : { [CREATE_KEY]: key };
}

/** What names a create: the resource's URN and its stored inputs (none before it is created). */
export interface CreateIdentity {
  urn?: unknown;
  olds?: Props;
}

/** The create key in `props` (inputs or outputs) as a property to carry on; empty when there is none. */
function keptKey(props: Props): Props {
  return typeof props[CREATE_KEY] === "string" ? { [CREATE_KEY]: props[CREATE_KEY] } : {};
}

/**
 * Validates with the contract schema (fields holding preview unknowns are skipped) and normalises; with every
 * input known, adds the create key (`keyFor`) the next Create sends as its `Idempotency-Key`.
 */
export function check<C extends Props, L extends { id: string }>(
  spec: ResourceSpec<C, L>,
  news: Props,
  identity: CreateIdentity = {},
): pulumi.dynamic.CheckResult {
  const normalised = spec.normalise(withoutReserved(news));
  const unknownKeys = Object.keys(normalised).filter((k) => containsUnknown(normalised[k]));
  const known = Object.fromEntries(Object.entries(normalised).filter(([k]) => !unknownKeys.includes(k)));
  const parsed = schemaOfKnown(spec.schema, unknownKeys).safeParse(known);
  if (!parsed.success) return { inputs: news, failures: failuresFrom(parsed.error, known, spec.typeName) };
  const checked = { ...normalised, ...(parsed.data as Props) };
  const failures = unknownKeys.length === 0 ? (spec.crossFieldFailures?.(checked as C) ?? []) : [];
  if (failures.length) return { inputs: news, failures };
  const inputs = Object.fromEntries(Object.entries(checked).filter(([, v]) => v !== undefined));
  return { inputs: unknownKeys.length === 0 ? { ...inputs, ...keyFor(spec, inputs, identity) } : inputs };
}

function withoutSecrets<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, inputs: Props): Props {
  return Object.fromEntries(Object.entries(inputs).filter(([k]) => !(spec.writeOnly ?? []).includes(k)));
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
  if (e.status === 401)
    return new Error(
      `${e.message}; the credentials were rejected (expired or revoked?): check cloudcost:apiToken or cloudcost:clientId/clientSecret`,
      { cause: e },
    );
  if (e.status === 403)
    return new Error(`${e.message}; the token lacks a scope this operation needs (read for reads, write for changes)`, { cause: e });
  // Read and Delete take a 404 as "gone"; an update that meets one (the object deleted outside Pulumi, or by a
  // delete-before-replace killed before Pulumi recorded it) can only be settled by reading the state again.
  if (e.status === 404)
    return new Error(
      `${e.message}; the object no longer exists: run \`npx --package @cloudcost/pulumi cloudcost-pulumi pending --apply\` (or \`pulumi refresh\`), then \`pulumi up\` creates it again`,
      { cause: e },
    );
  return e;
}

async function withHint<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw userFacing(explained(e));
  }
}

/**
 * The inputs that describe a live object, in the exact form Check gives them (so an unchanged object reads
 * back equal to what `up` stored, refresh after refresh): the service's answer, then — for what it does
 * not echo — the values `carried` from state (write-only fields, `adoptId`). A live object the schema
 * refuses is returned as read, so refresh still shows it.
 */
export function readBack<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, live: L, carried: Props): Props {
  const fromLive = spec.inputs(live);
  for (const k of spec.writeOnly ?? []) {
    if ((fromLive[k] === undefined || fromLive[k] === null) && carried[k] !== undefined && carried[k] !== null) fromLive[k] = carried[k];
  }
  if (typeof carried.adoptId === "string") fromLive.adoptId = carried.adoptId;
  const checked = check(spec, fromLive);
  return checked.failures?.length ? fromLive : checked.inputs!;
}

/** Outputs: the live object, every input in Check's form (so policies judge outputs as they judge inputs), and the owner. */
async function outputsOf<C extends Props, L extends { id: string }>(
  spec: ResourceSpec<C, L>,
  live: L,
  carried: Props,
  inputs: Props = readBack(spec, live, carried),
): Promise<Props> {
  const org = await organizationOf(currentClient());
  return { ...spec.outputs(live), ...inputs, [ORGANIZATION_KEY]: org.id };
}

/**
 * A 404 means "gone" only when these credentials see the organization that owns the object (recorded in
 * its outputs): another organization's credentials get 404 for everything, and taking that for "gone"
 * would drop real objects from state. State written before owners were recorded has no `organization`.
 */
async function confirmGone(typeName: string, id: string, props: Props, doing: string): Promise<void> {
  const owner = props[ORGANIZATION_KEY];
  if (typeof owner !== "string") return;
  const org = await organizationOf(currentClient());
  if (org.id === owner) return;
  throw new Error(
    `cannot ${doing} ${typeName} ${id}: it belongs to organization ${owner}, but the configured credentials belong to organization ` +
      `${org.id} (${org.name}), which cannot see it. Nothing was changed: configure credentials of organization ${owner} ` +
      `(cloudcost:apiToken or cloudcost:clientId/clientSecret, or the CLOUDCOST_* environment variables)`,
  );
}

/**
 * Issue 38: the service's rules on a create or a change (./service-check.ts), once the contract's are met.
 * Not for an unchanged resource (every `up` checks every resource: no request for one that sends nothing) nor
 * for inputs still unknown at preview (a value from an object not made yet): `up` checks them when known.
 */
async function checkWithService<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>, olds: Props, inputs: Props) {
  if (containsUnknown(inputs)) return [];
  const stored = withoutReserved(olds);
  const isCreate = Object.keys(stored).length === 0;
  const checked = withoutReserved(inputs) as C;
  const changed = isCreate ? spec.diffKeys : changedKeys(spec, stored, checked);
  if (changed.length === 0) return [];
  const adoptId = typeof checked.adoptId === "string" ? checked.adoptId : undefined;
  return serviceFailures(spec, checked, { adoptId, changed, ...(isCreate ? {} : { olds: stored }) });
}

/** Builds the seven provider operations from a resource spec. */
export function handlersFor<C extends Props, L extends { id: string }>(spec: ResourceSpec<C, L>): Handlers {
  // Create and Update receive what Check returned (the engine sends nothing else): already validated,
  // normalised and defaulted by `spec.schema`, so it is not parsed a second time on every call.
  const checkedInputs = (inputs: Props): C => withoutReserved(inputs) as C;
  return {
    configure,
    check: (olds: Props, news: Props) =>
      withHint(async () => {
        const result = check(spec, news, { urn: news[URN_KEY], olds });
        const failures = result.failures?.length ? [] : await checkWithService(spec, olds, result.inputs ?? {});
        // The contract's rules passed: the inputs go back checked (normalised, sets in Check's order) beside the
        // service's failures, so a policy judges the same form as it would without them.
        return failures.length ? { inputs: result.inputs ?? news, failures } : result;
      }),
    diff: async (_id, olds: Props, news: Props) => {
      // Every input can be changed in place (PATCH/PUT), so nothing forces a replacement; but when the engine
      // replaces anyway (`--target-replace`, `replaceOnChanges`), an object with a field unique on the
      // service must be deleted first (pulumi step_generator.go continueStepsFromDiff honours this flag).
      //
      // A change is answered "unknown" (`changes` left out), not `true`: the SDK's dynamic-provider host
      // (@pulumi/pulumi cmd/dynamic-provider, 3.216 to 3.270 at least) passes on only changes, replaces and
      // deleteBeforeReplace, never which fields changed, so on `true` the engine knows no changed key: nothing
      // for `replaceOnChanges` to match (step_generator.go applyReplaceOnChanges), no `diffReasons` or
      // `detailedDiff` in a preview. On "unknown" the engine diffs the stored inputs against the new checked
      // ones itself (step_generator.go diffResource) and has both. No change stays a plain `false`.
      const changed = changedKeys(spec, olds, news).length > 0;
      return { ...(changed ? {} : { changes: false }), replaces: [], deleteBeforeReplace: spec.uniqueOnService === true };
    },
    create: (inputs: Props) =>
      withHint(async () => {
        const client = currentClient();
        const checked = checkedInputs(inputs);
        const adoptId = checked.adoptId;
        const idempotencyKey = typeof inputs[CREATE_KEY] === "string" ? inputs[CREATE_KEY] : undefined;
        let replayed = false;
        const onReplay = () => void (replayed = true);
        if (typeof adoptId === "string") wroteObject(client, spec.typeName, adoptId);
        const live =
          typeof adoptId === "string"
            ? await adopt(spec, adoptId, checked)
            : await spec.create(client, checked, { idempotencyKey, onReplay });
        const mark = replayed ? markGivenBack(live.id) : {};
        // An adopted or given-back object may be in this process's listing, as it was before this write.
        wroteObject(client, spec.typeName, live.id);
        // The key goes into the outputs too: Read sees only those, and gives it back with the inputs.
        return { id: live.id, outs: { ...(await outputsOf(spec, live, checked)), ...keptKey(inputs), ...mark } };
      }),
    read: (id: string, props: Props = {}) =>
      withHint(async () => {
        const stored = withoutReserved(props);
        try {
          const live = await liveForRead(spec, currentClient(), id);
          // Read back once: the same inputs go into the outputs and replace the stored inputs.
          const inputs = { ...readBack(spec, live, stored), ...keptKey(props) };
          return { id, props: { ...(await outputsOf(spec, live, stored, inputs)), ...keptMark(props) }, inputs };
        } catch (e) {
          if (!isNotFound(e)) throw e;
          // `Resource.get(name, id)` (no stored state): the engine fails a read only when there are no
          // outputs, and the host always adds `__provider`, so a missing object must fail here.
          if (Object.keys(stored).length === 0) {
            const org = await organizationOf(currentClient());
            throw new Error(
              `${spec.typeName} ${id} does not exist in organization ${org.id} (${org.name}) that the configured credentials belong to`,
              { cause: e },
            );
          }
          await confirmGone(spec.typeName, id, stored, "refresh");
          // Deleted outside Pulumi: an empty id tells the engine to drop it from state.
          return { id: "", props: {} };
        }
      }),
    update: (id: string, olds: Props, news: Props) =>
      withHint(async () => {
        const client = currentClient();
        wroteObject(client, spec.typeName, id);
        const checked = checkedInputs(news);
        const live = (await spec.update(client, id, checked, changedKeys(spec, olds, checked))) ?? (await spec.get(client, id));
        return { outs: { ...(await outputsOf(spec, live, checked)), ...keptKey(news), ...keptMark(olds) } };
      }),
    delete: (id: string, props: Props = {}) =>
      withHint(async () => {
        // The object a later create was given back (./given-back): the resource that received it holds it
        // now, so it stays — deleting it would leave that resource pointing at nothing.
        if (await heldByALaterCreate(currentClient(), id, props)) return;
        try {
          wroteObject(currentClient(), spec.typeName, id);
          await spec.remove(currentClient(), id);
        } catch (e) {
          // Already gone is what delete wants, once the credentials are known to see the owner.
          if (!isNotFound(e)) throw e;
          await confirmGone(spec.typeName, id, withoutReserved(props), "delete");
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
    if (isNotFound(e)) throw new Error(`adoptId ${id}: no such ${spec.typeName} exists to adopt (it may have been deleted)`, { cause: e });
    throw e;
  }
  return (await spec.update(client, id, checked, changedKeys(spec, spec.outputs(live), checked))) ?? live;
}
