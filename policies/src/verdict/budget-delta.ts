import type { PolicyResource } from "@pulumi/policy";
import { kindOfType } from "@cloudcost/pulumi";
import { readAlert } from "../inputs/budget-alert";
import { readGroup } from "../inputs/cloud-group";
import { UNKNOWN, knownElements } from "../inputs/raw";
import { formatMoney, monthlyAmount } from "../rules/monthly-amount";

/*
 * Issue 40: the budget a change adds — the monthly amounts of budget alerts created, changed and removed, per
 * group, per account and in total, per currency. Read from each door's old and new inputs (a plan's
 * `before`/`after`, a preview's `oldState`/`newState`) with the policies' own readers, so defaults (currency,
 * period) are the provider's.
 */

export type ChangeAction = "create" | "update" | "delete" | "replace" | "no-op";

/** One alert's change as a door gives it: inputs in the contract's names, either side absent when it does not exist. */
export interface AlertChange {
  address: string;
  action: ChangeAction;
  before?: object;
  after?: PolicyResource;
}

export interface DeltaRow {
  /** A group (its address/URN, its id, or "(organization)"), an account set, or "total". */
  key: string;
  currency: string;
  created: number;
  /** Increases minus decreases of alerts that stay. */
  changed: number;
  removed: number;
  /** created + changed − removed: what the change adds per month. */
  net: number;
}

export interface AlertDelta {
  address: string;
  action: ChangeAction;
  currency: string;
  /** Monthly amounts; undefined where the side does not exist. */
  before?: number;
  after?: number;
  group: string;
  accounts: string;
}

export interface BudgetDelta {
  total: DeltaRow[];
  byGroup: DeltaRow[];
  byAccount: DeltaRow[];
  alerts: AlertDelta[];
  /** Alerts whose amount is not known until apply (computed from another resource): not counted. */
  unknown: string[];
}

const ORGANIZATION = "(organization)";

interface Monthly {
  amount: number;
  currency: string;
}

function monthlyOf(props: object | undefined): Monthly | typeof UNKNOWN | undefined {
  if (!props) return undefined;
  const alert = readAlert(props);
  if (alert.amount === UNKNOWN || alert.period === UNKNOWN || alert.currency === UNKNOWN) return UNKNOWN;
  return { amount: monthlyAmount(alert.amount, alert.period), currency: alert.currency };
}

/**
 * The group an alert names, as a reviewer knows it: the group resource it references in this change
 * (its address or URN), else its id, else the organization; and the accounts its budget covers: its own
 * `filters.accountIds`, else the members of its group when the change declares the group.
 */
function scopeOf(
  props: object,
  dependencies: PolicyResource["propertyDependencies"],
  groups: ReadonlyMap<string, PolicyResource>,
): { group: string; accounts: string } {
  const ref = dependencies.groupId?.find((d) => kindOfType(d.type) === "CloudGroup");
  const view = readAlert(props);
  const groupId = view.groupId === UNKNOWN ? undefined : view.groupId;
  const groupResource = ref ?? (groupId ? groups.get(groupId) : undefined);
  // The group's address or URN when the change declares it, whether the alert references it or names its id.
  const group = groupResource?.urn ?? (groupId === null ? ORGANIZATION : (groupId ?? "(unknown group)"));
  const filtered = view.filters === UNKNOWN || view.filters.value === UNKNOWN ? undefined : view.filters.value.accountIds;
  const members = groupResource ? readGroup(groupResource.props).members : UNKNOWN;
  const accounts = filtered?.length ? filtered : members !== UNKNOWN && groupResource ? knownElements(members).map((m) => m.accountId) : [];
  return {
    group,
    accounts: accounts.length ? [...accounts].sort().join(", ") : group === ORGANIZATION ? "(all accounts)" : "(the group's accounts)",
  };
}

function add(rows: Map<string, DeltaRow>, key: string, currency: string, part: "created" | "changed" | "removed", amount: number) {
  const id = `${key}\u0000${currency}`;
  const row = rows.get(id) ?? { key, currency, created: 0, changed: 0, removed: 0, net: 0 };
  row[part] += amount;
  row.net = row.created + row.changed - row.removed;
  rows.set(id, row);
}

const round = (rows: Map<string, DeltaRow>) =>
  [...rows.values()]
    .filter((r) => r.created || r.changed || r.removed)
    .map((r) => ({ ...r, created: cents(r.created), changed: cents(r.changed), removed: cents(r.removed), net: cents(r.net) }));
const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The budget delta of CHANGES (every alert the change touches or keeps); GROUPS are the change's Cloud Groups
 * by their id (for alerts that name an existing group by id). A replaced alert's old amount is removed and
 * its new one created only when the currency changes; otherwise the difference is a change.
 */
export function budgetDelta(changes: readonly AlertChange[], groups: ReadonlyMap<string, PolicyResource> = new Map()): BudgetDelta {
  const total = new Map<string, DeltaRow>();
  const byGroup = new Map<string, DeltaRow>();
  const byAccount = new Map<string, DeltaRow>();
  const alerts: AlertDelta[] = [];
  const unknown: string[] = [];
  for (const c of changes) {
    if (c.action === "no-op") continue;
    const before = monthlyOf(c.before);
    const after = monthlyOf(c.after?.props);
    if (before === UNKNOWN || after === UNKNOWN) {
      unknown.push(c.address);
      continue;
    }
    // A removed alert's scope is what it was: its old inputs, no references (the plan no longer declares it).
    const scope = c.after ? scopeOf(c.after.props, c.after.propertyDependencies, groups) : scopeOf(c.before ?? {}, {}, groups);
    const parts: ["created" | "changed" | "removed", Monthly][] = [];
    if (before && after && before.currency === after.currency) {
      if (after.amount !== before.amount) parts.push(["changed", { amount: after.amount - before.amount, currency: after.currency }]);
    } else {
      if (after) parts.push(["created", after]);
      if (before) parts.push(["removed", before]);
    }
    for (const [part, money] of parts)
      for (const [rows, key] of [
        [total, "total"],
        [byGroup, scope.group],
        [byAccount, scope.accounts],
      ] as const)
        add(rows, key, money.currency, part, money.amount);
    alerts.push({
      address: c.address,
      action: c.action,
      currency: (after ?? before)?.currency ?? "USD",
      ...(before ? { before: cents(before.amount) } : {}),
      ...(after ? { after: cents(after.amount) } : {}),
      group: scope.group,
      accounts: scope.accounts,
    });
  }
  return { total: round(total), byGroup: round(byGroup), byAccount: round(byAccount), alerts, unknown };
}

/** The report commands' own policy (issue 40): the monthly budget one change may add, per currency. */
export const BUDGET_INCREASE_CAP = "budget-increase-cap";
export const BUDGET_INCREASE_CAP_DESCRIPTION =
  "Caps the monthly budget a single change may add (created + changed − removed), per currency; configured as " +
  '"budget-increase-cap": { "enforcementLevel": "mandatory", "maxMonthlyIncrease": { "USD": 10000 } }.';

/** Messages for each currency whose net increase is over CAP. */
export function increaseOverCap(delta: BudgetDelta, cap: Readonly<Record<string, number>>): { currency: string; message: string }[] {
  return delta.total.flatMap((row) => {
    const max = cap[row.currency];
    if (max === undefined || row.net <= max) return [];
    return [
      {
        currency: row.currency,
        message:
          `this change adds ${formatMoney(row.net, row.currency)} of monthly budget (created ${formatMoney(row.created, row.currency)}, ` +
          `changed ${formatMoney(row.changed, row.currency)}, removed ${formatMoney(row.removed, row.currency)}), over the cap of ` +
          `${formatMoney(max, row.currency)} per change: split the change, or raise maxMonthlyIncrease.${row.currency}`,
      },
    ];
  });
}
