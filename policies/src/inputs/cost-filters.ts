import type { CostFiltersArgs } from "@cloudcost/pulumi";
import { CostFilters } from "@cloudcost/api";
import { Maybe, UNKNOWN, isString, rawProperty, readList, readValue, unwrapSecret, isUnknownSentinel } from "./raw";

/** The filter lists of a BudgetAlert or ScheduledReport, by the provider's own names. */
export const FILTER_LISTS = [
  "providers",
  "accountIds",
  "services",
  "regions",
  "tags",
] as const satisfies readonly (keyof CostFiltersArgs)[];
export type FilterList = (typeof FILTER_LISTS)[number];

/** The filters as the policies judge them: an empty list is the same as none, as in the provider's check. */
export interface FiltersView {
  /** The lists with at least one entry; UNKNOWN when a list is not known yet (preview). */
  narrowedBy: Maybe<FilterList[]>;
  /** The key of each tag condition (UNKNOWN: that condition is not known yet). */
  tagKeys: Maybe<Maybe<string>[]>;
  /**
   * The filters in the contract's canonical form, for a cost read with them; UNKNOWN while any part is unknown
   * or when the contract refuses them (the provider's check reports that, by field).
   */
  value: Maybe<CostFilters>;
}

export const NO_FILTERS: FiltersView = { narrowedBy: [], tagKeys: [], value: {} };

/** True when an unknown sentinel (preview) or a secret wrapper hides anywhere inside. */
function holdsUnknown(value: unknown): boolean {
  const plain = unwrapSecret(value);
  if (isUnknownSentinel(plain)) return true;
  if (plain === null || typeof plain !== "object") return false;
  return Object.keys(plain).some((k) => holdsUnknown(rawProperty(plain, k)));
}

/** Reads `filters`; absent or null is "no filter", the wrong type UNKNOWN (check reports it). */
export function readFilters(value: unknown): Maybe<FiltersView> {
  const plain = unwrapSecret(value);
  if (plain === undefined || plain === null) return NO_FILTERS;
  if (isUnknownSentinel(plain) || typeof plain !== "object" || Array.isArray(plain)) return UNKNOWN;
  let unknown = false;
  const narrowedBy: FilterList[] = [];
  for (const key of FILTER_LISTS) {
    const list = unwrapSecret(rawProperty(plain, key));
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) unknown = true;
    else if (list.length > 0) narrowedBy.push(key);
  }
  const tags = rawProperty(plain, "tags");
  return {
    narrowedBy: unknown ? UNKNOWN : narrowedBy,
    tagKeys: tags === undefined || tags === null ? [] : readList(tags, (t) => readTagKey(t)),
    value: unknown || holdsUnknown(plain) ? UNKNOWN : canonical(plain),
  };
}

function canonical(plain: object): Maybe<CostFilters> {
  const parsed = CostFilters.safeParse(plain);
  return parsed.success ? parsed.data : UNKNOWN;
}

function readTagKey(condition: unknown): Maybe<string> {
  const plain = unwrapSecret(condition);
  if (plain === null || typeof plain !== "object") return UNKNOWN;
  return readValue(rawProperty(plain, "key"), isString);
}
