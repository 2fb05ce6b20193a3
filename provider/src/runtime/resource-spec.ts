import type { CloudCostClient, CreateOptions, z } from "@cloudcost/api";
import type { Failure } from "./failures";
import type { Props } from "./normalise";

/** What a dry-run (issue 38) judges the inputs as: a create, an adoption, or a change of stored inputs. */
export interface DraftTarget {
  /** The object a create adopts (`adoptId`): its change is judged. */
  adoptId?: string;
  /** The stored inputs of the object being changed; absent for a create. */
  olds?: Props;
  /** The inputs that differ from `olds` (every one for a create). */
  changed: readonly string[];
}

/**
 * What differs between the three resources; `handlers.ts` turns a spec into the dynamic provider's
 * check/diff/create/read/update/delete.
 */
export interface ResourceSpec<Checked extends Props, Live extends { id: string }> {
  /** Type name for messages, e.g. "CloudGroup". */
  typeName: string;
  /** Inputs validated by check: the contract's input schema plus `adoptId`; strict, so unknown keys fail. */
  schema: z.ZodObject;
  /** Canonical spelling of raw inputs or stored outputs: defaults, sets sorted/de-duplicated, case folded. */
  normalise(props: Props): Props;
  /** Rules that span fields and are not in the schema (none may throw). */
  crossFieldFailures?(checked: Checked): Failure[];
  /** The inputs diff compares: `comparedInputs(schema)`. */
  diffKeys: readonly string[];
  /**
   * Inputs the service may leave out of its answers (secrets, write-only fields): when a live object has
   * no value for one, the value last sent (kept in state) stands for it, so refresh, `ignoreChanges` and
   * the next `up` agree (issue 13 items 1–2).
   */
  writeOnly?: readonly string[];
  /**
   * Fields unique on the service (CloudGroup `name`): a replacement must delete the old object first,
   * or the service refuses the new one (issue 13 item 8).
   */
  uniqueOnService?: boolean;
  /** Plain-JSON outputs of a live object (no `id`: Pulumi keeps that apart). */
  outputs(live: Live): Props;
  /** The inputs that would produce a live object (before Check's canonical form), so refresh shows drift. */
  inputs(live: Live): Props;
  get(client: CloudCostClient, id: string): Promise<Live>;
  /** Every object of the kind in the credentials' organization, in pages of `pageSize` (refresh by pages). */
  list(client: CloudCostClient, pageSize: number): AsyncIterable<Live>;
  /** `options.idempotencyKey` makes the create recognisable when it is repeated (./create-key). */
  create(client: CloudCostClient, inputs: Checked, options: CreateOptions): Promise<Live>;
  /** Sends only what `changed` names; resolves undefined when nothing had to be sent. */
  update(client: CloudCostClient, id: string, inputs: Checked, changed: readonly string[]): Promise<Live | undefined>;
  remove(client: CloudCostClient, id: string): Promise<void>;
  /**
   * The service's dry-run of what create (or update, for `target.olds`) would send (issue 38, ./service-check.ts):
   * resolves when the service would accept it, rejects with the real request's ApiError otherwise.
   */
  validate(client: CloudCostClient, inputs: Checked, target: DraftTarget): Promise<unknown>;
  /** The input property a field error of the dry-run names, where it is not the field's own path (CloudGroup's members). */
  propertyOf?(fieldPath: string, inputs: Checked): string | undefined;
}

/** The inputs diff compares: every field of the check schema but `adoptId`, which only matters at create. */
export function comparedInputs(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).filter((k) => k !== "adoptId");
}

/** The `keys` of a live object, as inputs. */
export function pick(live: Props, keys: readonly string[]): Props {
  return Object.fromEntries(keys.map((k) => [k, live[k]]));
}

/** The request body for checked inputs: everything but `adoptId`, which is ours, not the API's. */
export function apiBody<C extends { adoptId?: string }>(checked: C): Omit<C, "adoptId"> {
  const { adoptId: _adoptId, ...fields } = checked;
  return fields;
}
