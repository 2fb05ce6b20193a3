import { unknownValue } from "@pulumi/pulumi/runtime";

/** During preview, values not yet known reach check/diff as this sentinel string (anywhere in a value). */
export function containsUnknown(value: unknown): boolean {
  if (value === unknownValue) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
