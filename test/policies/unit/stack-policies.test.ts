import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { readAlert } from "../../../policies/src/inputs/budget-alert";
import { readGroup } from "../../../policies/src/inputs/cloud-group";
import { TotalCapConfig, checkTotalCap } from "../../../policies/src/stack/budget-total-cap";
import { CoverageConfig, checkCoverage } from "../../../policies/src/stack/cloud-group-budget-coverage";
import { checkExclusiveMembership } from "../../../policies/src/stack/cloud-group-exclusive-membership";
import { StackAlert, StackGroup, StackView } from "../../../policies/src/stack/stack-view";

const group = (name: string, props: Record<string, unknown> = {}): StackGroup => ({
  urn: `urn:g:${name}`,
  name,
  group: readGroup({ name, awsAccountIds: ["123456789012"], ...props }),
});
const alert = (name: string, props: Record<string, unknown>, groupUrns: string[] = []): StackAlert => ({
  urn: `urn:a:${name}`,
  name,
  alert: readAlert({ name, amount: 100, ...props }),
  groupUrns,
});
const stack = (groups: StackGroup[], alerts: StackAlert[]): StackView => ({ groups, alerts });

describe("cloud-group-budget-coverage", () => {
  const defaults = CoverageConfig.parse({});
  test("a group is covered by an alert whose groupId depends on it", () => {
    const s = stack([group("a"), group("b")], [alert("x", { groupId: unknownValue }, ["urn:g:a"])]);
    expect(checkCoverage(s, defaults)).toEqual([
      { urn: "urn:g:b", message: 'Cloud Group "b" has no enabled budget alert: declare a BudgetAlert with groupId: b.id' },
    ]);
  });
  test("an alert naming the group's adoptId covers it; a disabled alert does not unless configured", () => {
    const adopted = group("p", { adoptId: "grp_portal000001" });
    expect(checkCoverage(stack([adopted], [alert("x", { groupId: "grp_portal000001" })]), defaults)).toEqual([]);
    const disabled = stack([group("a")], [alert("x", { groupId: "a-id", enabled: false }, ["urn:g:a"])]);
    expect(checkCoverage(disabled, defaults)).toHaveLength(1);
    expect(checkCoverage(disabled, CoverageConfig.parse({ countDisabledAlerts: true }))).toEqual([]);
  });
  test("an unknown groupId that cannot be traced gives no verdict", () => {
    expect(checkCoverage(stack([group("a")], [alert("x", { groupId: unknownValue })]), defaults)).toEqual([]);
  });
});

describe("budget-total-cap", () => {
  const config = TotalCapConfig.parse({ maxTotalMonthlyAmount: { USD: 1000, EUR: 500 } });
  test("sums monthly amounts per currency and names the largest budgets", () => {
    const s = stack(
      [],
      [alert("a", { amount: 600 }), alert("b", { amount: 1500, period: "quarterly" }), alert("e", { amount: 400, currency: "EUR" })],
    );
    expect(checkTotalCap(s, config)).toEqual([
      {
        urn: "urn:a:a",
        message:
          "the budgets in USD add up to 1,100 USD per month, above the cap of 1,000 USD: lower budgets by 100 USD per month (largest: a 600 USD, b 500 USD) or raise maxTotalMonthlyAmount.USD",
      },
    ]);
    expect(checkTotalCap(stack([], [alert("a", { amount: 12000, period: "annual" })]), config)).toEqual([]);
  });
  test("disabled and (if configured) organization-wide alerts are left out; unknown amounts are skipped", () => {
    const s = stack(
      [],
      [alert("a", { amount: 900, groupId: "g" }), alert("b", { amount: 900, enabled: false }), alert("c", { amount: unknownValue })],
    );
    expect(checkTotalCap(s, config)).toEqual([]);
    const orgWide = stack([], [alert("a", { amount: 900, groupId: "g" }), alert("o", { amount: 900 })]);
    expect(checkTotalCap(orgWide, config)).toHaveLength(1);
    expect(checkTotalCap(orgWide, TotalCapConfig.parse({ ...config, includeOrganizationWide: false }))).toEqual([]);
  });
});

describe("cloud-group-exclusive-membership", () => {
  test("reports an account in several groups once, naming every group", () => {
    const az = "0b1f6471-1bf0-4dda-aec3-cb9272f09590";
    const s = stack(
      [
        group("a", { azureSubscriptionIds: [az] }),
        group("b", { awsAccountIds: ["999999999999"], azureSubscriptionIds: [az.toUpperCase()] }),
        group("c"),
      ],
      [],
    );
    expect(checkExclusiveMembership(s)).toEqual([
      {
        urn: "urn:g:b",
        message: `account azure:${az} is a member of the Cloud Groups "a", "b", so its cost counts in each of their budgets: keep it in one group`,
      },
      {
        urn: "urn:g:c",
        message:
          'account aws:123456789012 is a member of the Cloud Groups "a", "c", so its cost counts in each of their budgets: keep it in one group',
      },
    ]);
    expect(checkExclusiveMembership(stack([group("a"), group("b", { awsAccountIds: ["210987654321"] })], []))).toEqual([]);
  });
});
