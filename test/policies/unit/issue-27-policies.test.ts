/**
 * Issue 27's policies and what the existing ones judge of the new fields: scope by a group or a filter,
 * allowed tag keys, planned and adjusted amounts within the maximum, absolute thresholds not above the
 * amount, required thresholds met by an absolute one. Each on the view the pack builds from declared inputs.
 */
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { readAlert } from "../../../policies/src/inputs/budget-alert";
import { readReport } from "../../../policies/src/inputs/scheduled-report";
import { GroupScopeConfig, checkGroupScope } from "../../../policies/src/policies/budget-alert-group-scope";
import { AlertRecipientsConfig, checkAlertRecipients } from "../../../policies/src/policies/budget-alert-recipients";
import { MaxAmountConfig, checkMaxAmount } from "../../../policies/src/policies/budget-alert-max-amount";
import { ThresholdAmountsConfig, checkThresholdAmounts } from "../../../policies/src/policies/budget-alert-threshold-amounts";
import { ThresholdsConfig, checkThresholds, remediatedThresholds } from "../../../policies/src/policies/budget-alert-thresholds";
import { TagKeysConfig, checkTagKeys } from "../../../policies/src/policies/filter-tag-keys";
import { AdjustedAmountConfig, checkAdjustedAmount } from "../../../policies/src/stack/budget-alert-adjusted-amount";

const alert = (props: Record<string, unknown>) => readAlert({ name: "b", amount: 1000, recipients: ["ops@example.com"], ...props });
const report = (props: Record<string, unknown>) =>
  readReport({ name: "r", report: "summary", schedule: { frequency: "daily", time: "09:00", timezone: "UTC" }, ...props });

describe("budget-alert-group-scope with filters", () => {
  const defaults = GroupScopeConfig.parse({});

  test("a filter with at least one entry scopes an alert without a group", () => {
    expect(checkGroupScope(alert({ filters: { services: ["Amazon EC2"] } }), defaults)).toEqual([]);
    expect(checkGroupScope(alert({ filters: { tags: [{ key: "team", values: ["web"] }] } }), defaults)).toEqual([]);
  });

  test("no filter, an empty filter or only empty lists is organization-wide, as the provider's check reads them", () => {
    for (const filters of [undefined, null, {}, { services: [], regions: null }]) {
      const [message] = checkGroupScope(alert({ filters }), defaults);
      expect(message).toContain("so it budgets the whole organization");
      expect(message).toContain("or narrow it with filters.providers, filters.accountIds, filters.services, filters.regions, filters.tags");
    }
  });

  test("scopingFilters says which lists count: providers alone does not scope when left out", () => {
    const config = GroupScopeConfig.parse({ scopingFilters: ["accountIds", "tags"] });
    const [message] = checkGroupScope(alert({ filters: { providers: ["aws"] } }), config);
    expect(message).toContain("has no groupId and filters only on providers");
    expect(message).toContain("filters.accountIds, filters.tags");
    expect(checkGroupScope(alert({ filters: { accountIds: ["111122223333"] } }), config)).toEqual([]);
    const groupsOnly = GroupScopeConfig.parse({ scopingFilters: [] });
    const [only] = checkGroupScope(alert({ filters: { accountIds: ["111122223333"] } }), groupsOnly);
    expect(only).not.toContain("narrow it");
  });

  test("unknown filters (preview) are not judged; a group still scopes", () => {
    expect(checkGroupScope(alert({ filters: unknownValue }), defaults)).toEqual([]);
    expect(checkGroupScope(alert({ filters: { services: unknownValue } }), defaults)).toEqual([]);
    expect(checkGroupScope(alert({ groupId: "grp_0123456789" }), defaults)).toEqual([]);
  });
});

describe("filter-tag-keys", () => {
  const config = TagKeysConfig.parse({ allowedTagKeys: ["team", "env"] });

  test("names the condition and the allowed keys, for alerts and reports alike", () => {
    const filters = {
      tags: [
        { key: "team", values: ["a"] },
        { key: "owner", values: ["b"] },
      ],
    };
    const expected = ['filters.tags[1].key "owner" is not an allowed tag key: use one of "team", "env" (or add it to allowedTagKeys)'];
    expect(checkTagKeys(alert({ filters }).filters, config)).toEqual(expected);
    expect(checkTagKeys(report({ filters }).filters, config)).toEqual(expected);
  });

  test("a key that differs only in case is named as the likely intent", () => {
    const [message] = checkTagKeys(alert({ filters: { tags: [{ key: "Team", values: ["a"] }] } }).filters, config);
    expect(message).toContain('did you mean "team"? Tag keys are case-sensitive');
  });

  test("the default allows any key; unknown keys are not judged", () => {
    expect(checkTagKeys(alert({ filters: { tags: [{ key: "anything", values: ["a"] }] } }).filters, TagKeysConfig.parse({}))).toEqual([]);
    expect(checkTagKeys(alert({ filters: { tags: [{ key: unknownValue, values: ["a"] }] } }).filters, config)).toEqual([]);
    expect(checkTagKeys(alert({ filters: { tags: unknownValue } }).filters, config)).toEqual([]);
  });
});

describe("budget-alert-max-amount with planned amounts", () => {
  const config = MaxAmountConfig.parse({ maxMonthlyAmount: { USD: 3000 } });

  test("each planned amount is judged per month like amount, and named by its index and period", () => {
    const planned = [
      { periodStart: "2026-01-01", amount: 2000 },
      { periodStart: "2026-02-01", amount: 3500 },
    ];
    expect(checkMaxAmount(alert({ amount: 1000, plannedAmounts: planned }), config)).toEqual([
      "the planned amount for 2026-02-01 3,500 USD per month is above the maximum of 3,000 USD per month: lower plannedAmounts[1].amount to at most 3,000 USD or raise maxMonthlyAmount.USD",
    ]);
    const quarterly = [{ periodStart: "2026-04-01", amount: 9300 }];
    const [message] = checkMaxAmount(alert({ period: "quarterly", amount: 100, plannedAmounts: quarterly }), config);
    expect(message).toContain("9,300 USD per quarter (3,100 USD per month)");
  });

  test("an unknown planned amount is not judged, and does not hide amount's own verdict", () => {
    expect(checkMaxAmount(alert({ amount: 5000, plannedAmounts: [unknownValue] }), config)).toHaveLength(1);
    expect(checkMaxAmount(alert({ plannedAmounts: unknownValue }), config)).toEqual([]);
  });
});

describe("budget-alert-threshold-amounts", () => {
  const defaults = ThresholdAmountsConfig.parse({});

  test("an absolute threshold above amount, or above a planned amount, is named with the largest allowed value", () => {
    const thresholds = [
      { percent: 100, basis: "actual" },
      { amount: 1200, basis: "forecast" },
    ];
    expect(checkThresholdAmounts(alert({ thresholds }), defaults)).toEqual([
      "thresholds[1] (amount 1,200 USD, forecast) is above amount 1,000 USD: it would fire only after the budget is exceeded; lower it to at most 1,000 USD, or use a percent threshold, which follows each period's amount",
    ]);
    const planned = [{ periodStart: "2026-02-01", amount: 500 }];
    const [message] = checkThresholdAmounts(alert({ thresholds: [{ amount: 800, basis: "actual" }], plannedAmounts: planned }), defaults);
    expect(message).toContain("is above the planned amount for 2026-02-01 500 USD");
    expect(message).toContain("lower it to at most 500 USD");
  });

  test("at or below the amount passes; maxPercentOfAmount moves the line; percent thresholds are not this policy's", () => {
    expect(checkThresholdAmounts(alert({ thresholds: [{ amount: 1000, basis: "actual" }] }), defaults)).toEqual([]);
    const config = ThresholdAmountsConfig.parse({ maxPercentOfAmount: 80 });
    expect(checkThresholdAmounts(alert({ thresholds: [{ amount: 900, basis: "actual" }] }), config)).toHaveLength(1);
    expect(checkThresholdAmounts(alert({ thresholds: [{ percent: 500, basis: "actual" }] }), defaults)).toEqual([]);
  });

  test("unknown thresholds or amounts are not judged", () => {
    expect(checkThresholdAmounts(alert({ thresholds: unknownValue }), defaults)).toEqual([]);
    expect(checkThresholdAmounts(alert({ amount: unknownValue, thresholds: [{ amount: 1e6, basis: "actual" }] }), defaults)).toEqual([]);
  });
});

describe("budget-alert-thresholds with absolute thresholds", () => {
  const defaults = ThresholdsConfig.parse({});

  test("an absolute threshold at the required percent of amount meets the requirement", () => {
    const thresholds = [
      { amount: 1000, basis: "actual" },
      { percent: 90, basis: "forecast" },
    ];
    expect(checkThresholds(alert({ thresholds }), defaults)).toEqual([]);
    expect(remediatedThresholds(alert({ thresholds }), defaults)).toBeUndefined();
  });

  test("an absolute threshold at another level does not, and the remediation adds the percent one", () => {
    const thresholds = [
      { amount: 999, basis: "actual" },
      { percent: 90, basis: "forecast" },
    ];
    expect(checkThresholds(alert({ thresholds }), defaults)).toEqual([
      'the required threshold { percent: 100, basis: "actual" } is missing: add it to thresholds',
    ]);
    expect(remediatedThresholds(alert({ thresholds }), defaults)).toEqual([
      ...thresholds.map((t) => expect.objectContaining(t)),
      { percent: 100, basis: "actual" },
    ]);
  });
});

describe("budget-alert-adjusted-amount (stack, on outputs)", () => {
  const config = AdjustedAmountConfig.parse({ maxMonthlyAmount: { USD: 3000 } });
  const stack = (props: Record<string, unknown>) => ({
    groups: [],
    alerts: [{ urn: "urn:a", name: "a", alert: alert(props), groupUrns: [] }],
  });

  test("judges the effectiveAmount output of an alert set from history", () => {
    expect(checkAdjustedAmount(stack({ autoAdjust: { lookbackPeriods: 3 }, effectiveAmount: 3500 }), config)).toEqual([
      {
        urn: "urn:a",
        message:
          "the amount set from history (autoAdjust over 3 period(s)) is 3,500 USD, above the maximum of 3,000 USD per month: replace autoAdjust with plannedAmounts or a fixed amount within the maximum, or raise maxMonthlyAmount.USD",
      },
    ]);
    expect(checkAdjustedAmount(stack({ autoAdjust: { lookbackPeriods: 3 }, effectiveAmount: 2999 }), config)).toEqual([]);
  });

  test("in preview (no output yet), or without autoAdjust, there is nothing to judge", () => {
    expect(checkAdjustedAmount(stack({ autoAdjust: { lookbackPeriods: 3 } }), config)).toEqual([]);
    expect(checkAdjustedAmount(stack({ autoAdjust: { lookbackPeriods: 3 }, effectiveAmount: unknownValue }), config)).toEqual([]);
    expect(checkAdjustedAmount(stack({ effectiveAmount: 1e6 }), config)).toEqual([]);
  });
});

describe("budget-alert-recipients with routing per threshold", () => {
  const config = AlertRecipientsConfig.parse({ allowedEmailDomains: ["example.com"] });

  test("a threshold's own recipients are held to the allowed domains, named by threshold", () => {
    const thresholds = [{ percent: 100, basis: "actual", recipients: ["cfo@example.com", "x@gmail.com"] }];
    expect(checkAlertRecipients(alert({ thresholds }), config)).toEqual([
      'thresholds[0].recipients[1] uses the domain "gmail.com", which is not allowed: use an address in example.com',
    ]);
  });

  test("when every threshold routes to its own people, the alert's list may be empty; a routed [] (webhook only) must be allowed by minRecipients", () => {
    const routed = [{ percent: 100, basis: "actual", recipients: ["cfo@example.com"] }];
    expect(checkAlertRecipients(alert({ recipients: [], thresholds: routed }), config)).toEqual([]);
    const silent = [{ percent: 100, basis: "actual", recipients: [] }];
    expect(checkAlertRecipients(alert({ thresholds: silent }), config)).toEqual([
      "thresholds[0] routes to 0 recipient(s) of its own but needs at least 1: add e-mail addresses to thresholds[0].recipients, or remove it to use the alert's recipients",
    ]);
    expect(checkAlertRecipients(alert({ thresholds: silent }), AlertRecipientsConfig.parse({ minRecipients: 0 }))).toEqual([]);
  });

  test("a threshold without its own list uses the alert's, which must then have enough", () => {
    const mixed = [
      { percent: 100, basis: "actual", recipients: ["cfo@example.com"] },
      { percent: 80, basis: "forecast" },
    ];
    expect(checkAlertRecipients(alert({ recipients: [], thresholds: mixed }), config)).toEqual([
      "the alert has 0 recipient(s) but needs at least 1: add e-mail addresses to recipients",
    ]);
  });
});
