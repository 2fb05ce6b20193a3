import type { PolicyResource } from "@pulumi/policy";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { nativeTypeToken, type ResourceKind } from "@cloudcost/pulumi";
import { referencesByAddress, type PlanJson, type ResourceChange, type ValueMarks } from "./plan-json";
import { camelCase } from "./terraform-names";

/** The Terraform provider's resource types and the kinds they declare. */
export const TERRAFORM_TYPES: Readonly<Record<string, ResourceKind>> = {
  cloudcost_cloud_group: "CloudGroup",
  cloudcost_budget_alert: "BudgetAlert",
  cloudcost_scheduled_report: "ScheduledReport",
};

/** One planned resource as the policies see it: under the native type token, its inputs in the contract's names. */
export interface PlannedResource {
  address: string;
  /** The planned values as Terraform names them (snake_case), for messages. */
  after: Record<string, unknown>;
  resource: PolicyResource;
}

/**
 * A planned value in the contract's form: object keys camelCase, null (Terraform's "not set") left out as the
 * provider's defaults apply, and whatever the plan marks unknown (`after_unknown`) as the engine's unknown
 * sentinel, which the policies' readers treat as "cannot be judged yet" — exactly as in a Pulumi preview.
 */
export function toInputs(value: unknown, unknown: ValueMarks | undefined): unknown {
  if (unknown === true) return unknownValue;
  if (Array.isArray(value)) return value.map((v, i) => toInputs(v, Array.isArray(unknown) ? unknown[i] : undefined));
  if (value !== null && typeof value === "object") {
    const marks = unknown !== undefined && typeof unknown === "object" && !Array.isArray(unknown) ? unknown : {};
    const out: Record<string, unknown> = {};
    const keys = new Set([...Object.keys(value), ...Object.keys(marks)]);
    for (const key of keys) {
      const v = toInputs((value as Record<string, unknown>)[key] ?? null, marks[key]);
      if (v !== null) out[camelCase(key)] = v;
    }
    return out;
  }
  return value;
}

const OPTIONS: PolicyResource["opts"] = {
  protect: false,
  ignoreChanges: [],
  aliases: [],
  customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
  additionalSecretOutputs: [],
};

/** The address of the resource a configuration reference names (`cloudcost_cloud_group.platform.id` → `cloudcost_cloud_group.platform`). */
function referencedAddresses(ref: string, addresses: readonly string[]): string[] {
  return addresses.filter((a) => {
    const base = a.replace(/\[[^\]]*\]$/, "");
    return ref === a || ref.startsWith(`${a}.`) || ref === base || ref.startsWith(`${base}.`);
  });
}

/**
 * Every cloudcost_* resource the plan leaves in place (created, updated, replaced, read or unchanged: all but
 * deleted), as policy resources; each attribute's references in the configuration become the resource's
 * property dependencies, which tie an alert to its group while the group's id is still unknown.
 */
export function plannedResources(plan: PlanJson): PlannedResource[] {
  const kept = plan.resource_changes.filter(
    (c): c is ResourceChange & { change: { after: Record<string, unknown> } } =>
      c.mode === "managed" && c.type in TERRAFORM_TYPES && c.change.after !== null && c.change.after !== undefined,
  );
  const references = referencesByAddress(plan);
  const byAddress = new Map<string, PolicyResource>();
  const planned = kept.map((c): PlannedResource => {
    const kind = TERRAFORM_TYPES[c.type]!;
    const type = nativeTypeToken(kind);
    const props = toInputs(c.change.after, c.change.after_unknown) as Record<string, unknown>;
    const resource: PolicyResource = {
      type,
      props,
      urn: c.address,
      name: c.address,
      opts: OPTIONS,
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    };
    byAddress.set(c.address, resource);
    return { address: c.address, after: c.change.after, resource };
  });
  const addresses = [...byAddress.keys()];
  for (const { address, resource } of planned) {
    // Expressions are per configuration block: `x[0]` and `x["a"]` share the block `x`'s.
    const attributes = references.get(address) ?? references.get(address.replace(/\[[^\]]*\]$/, ""));
    for (const [attribute, refs] of attributes ?? []) {
      const deps = [...new Set(refs.flatMap((r) => referencedAddresses(r, addresses)))].map((a) => byAddress.get(a)!);
      if (deps.length) resource.propertyDependencies[camelCase(attribute)] = deps;
      resource.dependencies.push(...deps.filter((d) => !resource.dependencies.includes(d)));
    }
  }
  return planned;
}
