/** Canonical forms shared by check and diff, so equal intents compare equal whatever their spelling. */

export type Props = Record<string, unknown>;

/** Drops the host's reserved `__provider` (and any other `__` key) before anything is validated or sent. */
export function withoutReserved(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !k.startsWith("__")));
}

/** null means "not set" for every input: the field's default applies (so null ≡ empty list). */
export function nullsDropped(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * A list that is a set: strings canonicalised by `canon`, de-duplicated and sorted. Anything that is not
 * a list of strings is returned unchanged so the contract schema reports it.
 */
export function stringSet(value: unknown, canon: (s: string) => string = (s) => s): unknown {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return value;
  return [...new Set(value.map(canon))].sort();
}

/** E-mail addresses compare case-insensitively (the contract stores them lower-cased and trimmed). */
export const emailSet = (value: unknown): unknown => stringSet(value, (s) => s.trim().toLowerCase());

/** A list of JSON objects that is a set: de-duplicated by content and sorted by the given keys. */
export function objectSet(value: unknown, keys: readonly string[]): unknown {
  if (!Array.isArray(value) || !value.every((v) => v !== null && typeof v === "object" && !Array.isArray(v))) return value;
  const byContent = new Map<string, Props>();
  for (const item of value as Props[]) byContent.set(canonicalJson(item), item);
  return [...byContent.values()].sort((a, b) => keys.reduce((r, k) => r || compare(a[k], b[k]), 0));
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** JSON with object keys sorted, so equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Money is whole cents (the contract allows at most two decimal places): an amount within float noise of
 * a cent value (`0.1 + 0.2`) becomes that value, so Check stores and Diff compares cents, never noise.
 * Anything further from a cent value is left for the contract schema to refuse by name.
 */
export function inCents(value: unknown): unknown {
  if (typeof value !== "number" || !Number.isFinite(value)) return value;
  const cents = Math.round(value * 100);
  return Math.abs(value * 100 - cents) < 1e-6 ? cents / 100 : value;
}
