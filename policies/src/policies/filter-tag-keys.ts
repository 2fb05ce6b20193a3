import { BudgetAlert, ScheduledReport } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { readConfig, toConfigSchema } from "../config/schema";
import { validateResourceOfKind } from "../resource-types";
import { readAlert } from "../inputs/budget-alert";
import type { FiltersView } from "../inputs/cost-filters";
import { UNKNOWN } from "../inputs/raw";
import { readReport } from "../inputs/scheduled-report";
import { composable } from "../compose";

const NAME = "filter-tag-keys";

export const TagKeysConfig = z.object({
  allowedTagKeys: z
    .array(z.string().min(1).max(128))
    .default([])
    .describe("Tag keys that filters.tags of alerts and reports may use (compared exactly, as cloud tags are). Empty: any key."),
});
export type TagKeysConfig = z.output<typeof TagKeysConfig>;

/**
 * A tag key outside the organization's tagging standard matches no spend (or the wrong spend): the service
 * accepts the filter but the budget silently counts nothing — the AWS failure of terraform-provider-aws#46866,
 * stopped before deploy. A key that differs only in letter case is named as the likely intent.
 */
export function checkTagKeys(filters: typeof UNKNOWN | FiltersView, config: TagKeysConfig): string[] {
  if (config.allowedTagKeys.length === 0 || filters === UNKNOWN || filters.tagKeys === UNKNOWN) return [];
  const allowed = config.allowedTagKeys;
  return filters.tagKeys.flatMap((key, i) => {
    if (key === UNKNOWN || allowed.includes(key)) return [];
    const near = allowed.find((a) => a.toLowerCase() === key.toLowerCase());
    const hint = near ? `did you mean "${near}"? Tag keys are case-sensitive` : `use one of ${allowed.map((a) => `"${a}"`).join(", ")}`;
    return [`filters.tags[${i}].key "${key}" is not an allowed tag key: ${hint} (or add it to allowedTagKeys)`];
  });
}

const policy: ResourceValidationPolicy = {
  name: NAME,
  description: "Tag conditions in the filters of budget alerts and scheduled reports use only allowed tag keys (configurable).",
  enforcementLevel: "mandatory",
  configSchema: toConfigSchema(TagKeysConfig),
  // Both type families (dynamic and native): @pulumi/policy's validateResourceOfType would match the dynamic token only.
  validateResource: [
    validateResourceOfKind(BudgetAlert, (props, args, report) => {
      for (const m of checkTagKeys(readAlert(props).filters, readConfig(args, TagKeysConfig, NAME))) report(m);
    }),
    validateResourceOfKind(ScheduledReport, (props, args, report) => {
      for (const m of checkTagKeys(readReport(props).filters, readConfig(args, TagKeysConfig, NAME))) report(m);
    }),
  ],
};

export const filterTagKeys = composable(policy, TagKeysConfig);
