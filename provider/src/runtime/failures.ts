import { z } from "@cloudcost/api";
import type * as pulumi from "@pulumi/pulumi";

export type Failure = pulumi.dynamic.CheckFailure;

/** A zod issue path as a Pulumi property path: `thresholds[1].percent`, `schedule.dayOfWeek`. */
export function propertyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/** Field-level failures from a contract schema's issues; a missing required value reads "is required". */
export function failuresFrom(error: z.ZodError, input: unknown, typeName: string): Failure[] {
  return error.issues.flatMap((issue): Failure[] => {
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((k) => ({ property: propertyPath([...issue.path, k]), reason: `is not an input of ${typeName}` }));
    const missing =
      (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union") &&
      valueAt(input, issue.path) === undefined;
    return [{ property: propertyPath(issue.path) || "(inputs)", reason: missing ? "is required" : issue.message }];
  });
}

/**
 * The failures of a contract's rules across fields (`alertRules`, `reportRules`) on checked inputs: the
 * contract keeps them out of its object schemas so those stay pickable, and the service applies them too.
 */
export function ruleFailures<T>(rules: (value: T, ctx: z.RefinementCtx) => void, checked: T): Failure[] {
  const result = z
    .custom<T>(() => true)
    .superRefine(rules)
    .safeParse(checked);
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ property: propertyPath(issue.path) || "(inputs)", reason: issue.message }));
}
