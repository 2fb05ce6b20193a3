import { ApiError, type FieldError } from "@cloudcost/api";
import { currentClient } from "./clients";
import { propertyPath, type Failure } from "./failures";
import type { Props } from "./normalise";
import type { DraftTarget, ResourceSpec } from "./resource-spec";

/*
 * Issue 38: the service's own rules at preview. A rule that needs the organization (a group name already
 * taken, an account not connected or not in the group, no account of a provider, a tag key that is not a cost
 * allocation tag, a Cloud Group that does not exist) is judged by the contract's dry-run — the real request's
 * handlers, rolled back, writing nothing — so a preview fails where `up` would, on the property the service
 * names, with the service's own message. Check calls it only for a create or a change with every input known.
 */

/** Statuses of the dry-run that are the real request's refusal; anything else is a failure to ask. */
const REFUSALS: ReadonlySet<number> = new Set([400, 409, 422]);

/** `body.filters.accountIds.0` → `filters.accountIds[0]`: the field error's path as the input property it came from. */
export function propertyOfField(fieldPath: string): string {
  const parts = fieldPath.split(".").slice(fieldPath.startsWith("body.") ? 1 : 0);
  return propertyPath(parts.map((p) => (/^\d+$/.test(p) ? Number(p) : p))) || "(inputs)";
}

/** A field error as a Check failure: the service's message, then its code and path, as `up` reports them. */
function failureOf<C extends Props>(spec: Pick<ResourceSpec<C, { id: string }>, "propertyOf">, f: FieldError, inputs: C): Failure {
  return { property: spec.propertyOf?.(f.path, inputs) ?? propertyOfField(f.path), reason: `${f.message} (${f.code}: ${f.path})` };
}

/**
 * The failures the service would answer the create (or the change) of `inputs` with; none when it would
 * accept them. Without credentials (a preview on a machine that has none), or when the service cannot be
 * asked (network, 429 past its retries, 5xx, a group renamed or deleted outside Pulumi), there are
 * none either: the preview goes on, and `up` meets the rules as it always did. Credentials the service refuses
 * (401, 403) are thrown: `up` would stop on them too.
 */
export async function serviceFailures<C extends Props, L extends { id: string }>(
  spec: ResourceSpec<C, L>,
  inputs: C,
  target: DraftTarget,
): Promise<Failure[]> {
  let client;
  try {
    client = currentClient();
  } catch {
    return [];
  }
  try {
    await spec.validate(client, inputs, target);
    return [];
  } catch (e) {
    // Credentials the service refuses (revoked, expired, a deleted OAuth client, a missing scope) fail `up` the
    // same way: the preview says so now, once, instead of going on to a create that meets the same refusal.
    if (e instanceof ApiError && (e.status === 401 || e.status === 403)) throw e;
    if (!(e instanceof ApiError) || !REFUSALS.has(e.status) || !e.errors?.length) return [];
    return e.errors.map((f) => failureOf(spec, f, inputs));
  }
}
