import {
  providerOfAccount,
  providerOfRegion,
  providerOfService,
  type CostFilters,
  type FieldError,
  type Provider,
} from "@cloudcost/api/contract";
import { TAG_KEYS, TAG_VALUES, type LineAttributes } from "./dataset";

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

/** The accounts a filter is judged against: the organization's connected ones, and those in the read's or alert's scope. */
export interface FilterScope {
  /** `provider:accountId` of every connected account. */
  connected: ReadonlySet<string>;
  /** `provider:accountId` of the accounts counted: a Cloud Group's members, or every connected account. */
  counted: ReadonlySet<string>;
  /** The Cloud Group the scope is, or null for the whole organization. */
  groupId: string | null;
}

/**
 * What the contract cannot know, so a filter it accepts could still never match in this organization
 * (AWS provider issue #46866; issue 33): an account that is not connected, or (with a group) not one of
 * its members; a provider, service or region of a provider no counted account has; a tag key that is not a
 * cost allocation tag. The service refuses each (422) naming the value. Still accepted: a service a counted
 * account of its provider does not bill yet, a region where nothing runs yet, and any value of a cost
 * allocation tag (issue 37: a budget declared with the infrastructure it watches names a tag value before
 * anything carrying it has spent; AWS Budgets and GCP budgets accept any value of an active tag key too) —
 * spend can start there any day (`spend add`, a new account, a newly tagged resource). `at` is the filters' path.
 */
export function unevaluable(filters: CostFilters, scope: FilterScope, at: string, tagPath = "tags"): FieldError[] {
  const errors: FieldError[] = [];
  const where = scope.groupId === null ? "connected to this organization" : `in Cloud Group ${scope.groupId}`;
  filters.accountIds?.forEach((accountId, i) => {
    const provider = providerOfAccount(accountId);
    const key = `${provider}:${accountId}`;
    if (!scope.connected.has(key))
      errors.push({
        path: `${at}.accountIds.${i}`,
        code: "unknown_account",
        message: `${provider} account ${accountId} is not connected to this organization`,
      });
    else if (!scope.counted.has(key))
      errors.push({
        path: `${at}.accountIds.${i}`,
        code: "not_in_group",
        message: `${provider} account ${accountId} is not a member of Cloud Group ${scope.groupId ?? ""}, so none of its spend counts`,
      });
  });
  const providers = new Set([...scope.counted].map((key) => key.slice(0, key.indexOf(":"))));
  const noAccount = (key: "providers" | "services" | "regions", providerOf: (value: string) => Provider, what: string) =>
    filters[key]?.forEach((value, i) => {
      const provider = providerOf(value);
      if (!providers.has(provider))
        errors.push({
          path: `${at}.${key}.${i}`,
          code: "no_account_of_provider",
          message:
            key === "providers"
              ? `no ${provider} account is ${where}`
              : `is ${what} of ${provider}, and no ${provider} account is ${where}`,
        });
    });
  noAccount("providers", (p) => p as Provider, "");
  noAccount("services", providerOfService, "a service");
  noAccount("regions", providerOfRegion, "a region");
  filters.tags?.forEach((t, i) => {
    if (TAG_VALUES[t.key] === undefined)
      errors.push({
        path: `${at}.${tagPath}.${i}.key`,
        code: "unknown_tag_key",
        message: `is not a cost allocation tag of this organization (known: ${TAG_KEYS.join(", ")})`,
      });
  });
  return errors;
}
