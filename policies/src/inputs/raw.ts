import { Secret } from "@pulumi/policy";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";

/**
 * Marks a value the policies cannot judge: unknown during preview (the engine sends a sentinel string),
 * or of the wrong type (the provider's own `check` rejects those with a field-level error, so a policy
 * must not report them a second time). A check that needs such a value is skipped, never failed.
 */
export const UNKNOWN: unique symbol = Symbol("unknown");
export type Unknown = typeof UNKNOWN;
export type Maybe<T> = T | Unknown;

/** The engine marshals every unknown (computed) input as this one string sentinel. */
export function isUnknownSentinel(value: unknown): boolean {
  return value === unknownValue;
}

/**
 * One property exactly as it was sent, read past @pulumi/policy's proxies: the unknown-checking proxy
 * throws on `get` of an unknown value, which would turn the whole policy into a "can't run during
 * preview" notice; reading the own-property descriptor bypasses its `get` trap, so one unknown field
 * skips only the checks that need it. Secret wrappers (Remediate) are unwrapped; the values are used for
 * checks only and never echoed into messages.
 */
export function rawProperty(props: object, key: string): unknown {
  const descriptor = Reflect.getOwnPropertyDescriptor(props, key);
  return unwrapSecret(descriptor?.value);
}

export function unwrapSecret(value: unknown): unknown {
  return value instanceof Secret ? unwrapSecret(value.value) : value;
}

/** Reads an optional field: `undefined`/`null` become the provider's default, the wrong type becomes UNKNOWN. */
export function optional<T>(value: unknown, fallback: T, accept: (v: unknown) => v is T): Maybe<T> {
  if (value === undefined || value === null) return fallback;
  return readValue(value, accept);
}

/** Reads a value of an expected type; anything else (an unknown sentinel, a wrong type) is UNKNOWN. */
export function readValue<T>(value: unknown, accept: (v: unknown) => v is T): Maybe<T> {
  const plain = unwrapSecret(value);
  if (isUnknownSentinel(plain) || !accept(plain)) return UNKNOWN;
  return plain;
}

/** Reads a list whose elements are read one by one; the list itself unknown or not an array is UNKNOWN. */
export function readList<T>(value: unknown, readElement: (element: unknown) => Maybe<T>): Maybe<Maybe<T>[]> {
  const plain = unwrapSecret(value);
  if (!Array.isArray(plain)) return UNKNOWN;
  return plain.map(readElement);
}

export const isString = (v: unknown): v is string => typeof v === "string";
export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
export const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
export function isOneOf<T extends string>(options: readonly T[]): (v: unknown) => v is T {
  return (v: unknown): v is T => typeof v === "string" && (options as readonly string[]).includes(v);
}

/** Keeps only the known elements of a partly known list. */
export function knownElements<T>(list: readonly Maybe<T>[]): T[] {
  return list.filter((e): e is T => e !== UNKNOWN);
}
