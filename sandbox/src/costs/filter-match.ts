import { providerOfAccount, type CostFilters, type FieldError, type Provider } from "@cloudcost/api";
import { TAG_KEYS, type LineAttributes } from "./dataset";

/** What a filter is matched against: one cost line, synthetic or injected. */
export interface Attributed extends LineAttributes {
  provider: Provider;
  accountId: string;
  service: string;
}

const within = (list: readonly string[] | undefined, value: string): boolean => list === undefined || list.includes(value);

/** Issue 27: every key given must match (AND), each by any of its values (OR); a key left out matches all. */
export function matchesFilters(filters: CostFilters, line: Attributed): boolean {
  return (
    within(filters.providers, line.provider) &&
    within(filters.accountIds, line.accountId) &&
    within(filters.services, line.service) &&
    within(filters.regions, line.region) &&
    (filters.tags ?? []).every((t) => {
      const value = line.tags[t.key];
      return value !== undefined && t.values.includes(value);
    })
  );
}

/**
 * What the contract cannot know: accounts that are not connected to the organization and tag keys that
 * are not its cost allocation tags. Such a filter is accepted by the schema but could never be evaluated
 * (AWS provider issue #46866), so the service refuses it (422) naming each value. `at` is the filters' path.
 */
export function unevaluable(filters: CostFilters, connected: ReadonlySet<string>, at: string, tagPath = "tags"): FieldError[] {
  const errors: FieldError[] = [];
  filters.accountIds?.forEach((accountId, i) => {
    const provider = providerOfAccount(accountId);
    if (!connected.has(`${provider}:${accountId}`))
      errors.push({
        path: `${at}.accountIds.${i}`,
        code: "unknown_account",
        message: `${provider} account ${accountId} is not connected to this organization`,
      });
  });
  filters.tags?.forEach((t, i) => {
    if (!TAG_KEYS.includes(t.key))
      errors.push({
        path: `${at}.${tagPath}.${i}.key`,
        code: "unknown_tag_key",
        message: `is not a cost allocation tag of this organization (known: ${TAG_KEYS.join(", ")})`,
      });
  });
  return errors;
}
