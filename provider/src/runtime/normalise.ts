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

const isPlainObject = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

/** Azure subscription IDs are GUIDs and compare case-insensitively; other account IDs as written. */
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const accountIdCanon = (s: string): string => (GUID.test(s) ? s.toLowerCase() : s);

/** A list input where an empty list means the same as none: `[]` becomes absent (issue 27: Vantage #151's drift). */
const noneIfEmpty = (value: unknown): unknown => (Array.isArray(value) && value.length === 0 ? undefined : value);

/** Tag conditions: a set by content, each one's values a set, sorted by key. */
function tagSet(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every(isPlainObject)) return value;
  return objectSet(
    value.map((t) => ({ ...t, values: stringSet(t.values) })),
    ["key"],
  );
}

/**
 * Cost filters in one spelling: every list a set, an empty list the same as none, and a filter with no
 * condition left the same as no filter — so a service that answers `{}` or empty lists for "no filter"
 * never shows as drift. Anything that is not an object is returned for the contract schema to refuse.
 */
export function costFilters(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Props = {};
  for (const [key, list] of Object.entries(value)) {
    const canon = key === "tags" ? tagSet(list) : stringSet(list, key === "accountIds" ? accountIdCanon : undefined);
    const kept = noneIfEmpty(canon);
    if (kept !== undefined && kept !== null) out[key] = kept;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * Alert thresholds: a set by content (sorted by basis, percent, amount), money in cents, a threshold's own
 * recipients a set. Its `recipients: []` is kept: the contract reads it as "nobody by e-mail" (webhook
 * only), unlike null or absent, which send to the alert's recipients.
 */
export function thresholdSet(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every(isPlainObject)) return value;
  const each = value.map((t) => {
    const { recipients, amount, ...rest } = nullsDropped(t);
    const canon: Props = { ...rest };
    if (amount !== undefined) canon.amount = inCents(amount);
    if (recipients !== undefined) canon.recipients = emailSet(recipients);
    return canon;
  });
  return objectSet(each, ["basis", "percent", "amount"]);
}

/** Planned amounts: a set by period start, money in cents; an empty list is none. */
export function plannedAmountSet(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every(isPlainObject)) return noneIfEmpty(value);
  return noneIfEmpty(
    objectSet(
      value.map((p) => ({ ...p, amount: inCents(p.amount) })),
      ["periodStart"],
    ),
  );
}
