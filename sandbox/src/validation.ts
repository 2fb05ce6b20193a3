import type { FieldError } from "@cloudcost/api/contract";
import type { z } from "@cloudcost/api/contract";
import { invalidRequest } from "./errors";

type Issue = z.core.$ZodIssue;

/** Maps zod issues to field errors whose paths start at `where` (`body`, `query`, `params`). */
export function fieldErrors(issues: readonly Issue[], where: string): FieldError[] {
  return issues.flatMap((issue) => {
    const base = [where, ...issue.path.map(String)].join(".");
    // zod reports unknown keys once on the object; name each key so the client sees which field to drop.
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((k) => ({ path: `${base}.${k}`, code: "unrecognized_key", message: "is not a known field" }));
    return [{ path: base, code: issue.code, message: issue.message }];
  });
}

/** Parses `value` with `schema` or throws a 400 problem naming every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues, where);
  throw invalidRequest(`Invalid ${where}: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}.`, errors);
}

/** A parsed JSON object, form or query string: an object that is not an array (narrows without a cast). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One field of a parsed query string or form (`undefined` when the request has none or is not an object). */
export function fieldOf(container: unknown, name: string): unknown {
  return isRecord(container) ? container[name] : undefined;
}
