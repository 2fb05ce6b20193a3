import {
  costFiltersOf,
  periodContaining,
  previousPeriod,
  type BudgetPeriod,
  type CostFilters,
  type CostByDay,
  type CostByService,
  type CostComparison,
  type CostForecast,
  type CostQuery,
  type CostSummary,
  type DateWindow,
  type ForecastTotals,
  type Member,
  type Provider,
} from "@cloudcost/api/contract";
import type { Organizations } from "../store/organizations";
import type { Accounts } from "../store/accounts";
import { invalidRequest, unprocessable } from "../errors";
import type { Groups } from "../store/groups";
import type { Clocks } from "../store/clocks";
import type { InjectedLine, InjectedSpend } from "../store/injected-spend";
import { addDays, datesBetween, dayNumber, todayUtc } from "./calendar";
import { actualCents, costLines, deviationCents, expectedCents, lineAttributes, type CostLine } from "./dataset";
import { matchesFilters, unevaluable } from "./filter-match";

/** Every read lists both providers, in this order, even when one costs nothing. */
const PROVIDERS: readonly Provider[] = ["aws", "azure"];
/** Windows of synthetic history kept in memory at most (each entry is one number and its key). */
const MAX_HISTORY_ENTRIES = 2000;
/** z-score of an 80% two-sided interval. */
const Z80 = 1.2816;

const money = (cents: number): number => Math.round(cents) / 100;

/** What a read or an alert counts: the organization or one of its Cloud Groups, narrowed by filters (issue 27). */
export interface CostTarget {
  groupId: string | null;
  filters: CostFilters;
}

interface Scope {
  orgId: string;
  orgKey: string;
  currency: string;
  groupId: string | null;
  filters: CostFilters;
  /** The lines of the scope's accounts that match its filters. */
  lines: CostLine[];
  /** The accounts in scope, `provider:accountId` (injected spend counts for these). */
  accounts: ReadonlySet<string>;
  /** Today on the organization's clock (sandbox controls): cost is billed up to the day before. */
  today: string;
}

/**
 * One day of a window: billed (up to yesterday) or forecast (today onwards), in cents per provider.
 * Spend injected through the sandbox controls counts as billed at once, on the day it was injected.
 */
interface DayTally {
  date: string;
  kind: "actual" | "forecast";
  byProvider: Record<Provider, number>;
  /** The billed part of `byProvider`: all of it on an actual day, the injected spend on a forecast day. */
  billed: Record<Provider, number>;
  /** Variance of a forecast day (cents²); 0 for billed days. */
  variance: number;
}

export interface PeriodSpend {
  currentSpend: number;
  forecastedSpend: number;
  spendCurrency: string;
  periodStart: string;
  periodEnd: string;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
const dayTotal = (d: DayTally): number => d.byProvider.aws + d.byProvider.azure;
const billedTotal = (d: DayTally): number => d.billed.aws + d.billed.azure;

/**
 * The cost reads over the deterministic synthetic dataset. A Cloud Group's cost is the cost of its
 * member accounts, read from the store on every call, so a new group or member counts at once (spec rule 1).
 */
export class Costs {
  /** Memoized synthetic history (see `billedSynthetic`), cleared whole when full. */
  private readonly history = new Map<string, number>();

  constructor(
    private readonly orgs: Organizations,
    private readonly accounts: Accounts,
    private readonly groups: Groups,
    private readonly clocks: Clocks,
    private readonly injected: InjectedSpend,
  ) {}

  summary(orgId: string, q: DateWindow, target: CostTarget): CostSummary {
    const scope = this.scope(orgId, target);
    const days = this.tally(scope, q.from, q.to);
    return {
      ...this.window(scope, q),
      total: money(sum(days.map(billedTotal))),
      byProvider: PROVIDERS.map((provider) => ({ provider, amount: money(sum(days.map((d) => d.billed[provider]))) })),
      forecast: forecastTotals(days),
    };
  }

  byService(orgId: string, q: DateWindow, target: CostTarget): CostByService {
    const scope = this.scope(orgId, target);
    const billed = datesBetween(q.from, q.to).filter((d) => d < scope.today);
    const totals = new Map<string, { service: string; provider: Provider; cents: number }>();
    const add = (provider: Provider, service: string, cents: number) => {
      const key = `${provider}:${service}`;
      const entry = totals.get(key) ?? { service, provider, cents: 0 };
      entry.cents += cents;
      totals.set(key, entry);
    };
    for (const line of scope.lines) add(line.provider, line.service, sum(billed.map((date) => actualCents(scope.orgKey, line, date))));
    for (const line of this.injectedLines(scope, q.from, q.to)) add(line.provider, line.service, line.cents);
    const items = [...totals.values()].sort((a, b) => b.cents - a.cents || a.service.localeCompare(b.service));
    return {
      ...this.window(scope, q),
      total: money(sum(items.map((i) => i.cents))),
      items: items.map((i) => ({ service: i.service, provider: i.provider, amount: money(i.cents) })),
    };
  }

  /** Billed days only: the window's days up to yesterday. */
  byDay(orgId: string, q: DateWindow, target: CostTarget): CostByDay {
    const scope = this.scope(orgId, target);
    const days = this.tally(scope, q.from, q.to).filter((d) => d.kind === "actual");
    return {
      ...this.window(scope, q),
      total: money(sum(days.map(dayTotal))),
      days: days.map((d) => ({
        date: d.date,
        amount: money(dayTotal(d)),
        byProvider: PROVIDERS.map((provider) => ({ provider, amount: money(d.byProvider[provider]) })),
      })),
    };
  }

  forecast(orgId: string, q: DateWindow, target: CostTarget): CostForecast {
    const scope = this.scope(orgId, target);
    const days = this.tally(scope, q.from, q.to);
    return {
      ...this.window(scope, q),
      ...forecastTotals(days),
      days: days.map((d) => {
        const spread = Z80 * Math.sqrt(d.variance);
        return {
          date: d.date,
          amount: money(dayTotal(d)),
          kind: d.kind,
          lower: money(Math.max(0, dayTotal(d) - spread)),
          upper: money(dayTotal(d) + spread),
        };
      }),
    };
  }

  /** The window against the window of the same length right before it (billed cost only). */
  comparison(orgId: string, q: DateWindow, target: CostTarget): CostComparison {
    const previous = previousWindow(q);
    const scope = this.scope(orgId, target);
    const billed = (from: string, to: string) => this.tally(scope, from, to).filter((d) => d.kind === "actual");
    const cur = billed(q.from, q.to);
    const prev = billed(previous.from, previous.to);
    const byProvider = PROVIDERS.map((provider) => {
      const c = sum(cur.map((d) => d.byProvider[provider]));
      const p = sum(prev.map((d) => d.byProvider[provider]));
      return { provider, current: money(c), previous: money(p), change: money(c - p) };
    });
    const c = sum(cur.map(dayTotal));
    const p = sum(prev.map(dayTotal));
    return {
      ...this.window(scope, q),
      current: { from: q.from, to: q.to, amount: money(c) },
      previous: { ...previous, amount: money(p) },
      change: money(c - p),
      changePercent: p === 0 ? null : Math.round(((c - p) / p) * 10_000) / 100,
      byProvider,
    };
  }

  /**
   * Spend of an alert's scope in the current calendar period (UTC) of the organization's clock: billed so
   * far, and forecast for the whole period. `at` looks at another moment: the period containing
   * `at.periodDate`, billed up to the day before `at.today` (the evaluator reads a period that just ended
   * with `today` = the first day after it).
   */
  periodSpend(orgId: string, target: CostTarget, period: BudgetPeriod, at?: { periodDate: Date; today: string }): PeriodSpend {
    const scope = this.scope(orgId, target, at?.today);
    const { from, to } = periodContaining(period, at?.periodDate ?? this.clocks.now(orgId));
    const totals = forecastTotals(this.tally(scope, from, to));
    return { currentSpend: totals.actual, forecastedSpend: totals.total, spendCurrency: scope.currency, periodStart: from, periodEnd: to };
  }

  /**
   * The mean actual spend of `target` over the `count` complete periods before the one starting on
   * `periodStart` (issue 27, `autoAdjust`), in the organization's currency; 0 when they cost nothing.
   */
  historyMean(orgId: string, target: CostTarget, period: BudgetPeriod, periodStart: string, count: number): number {
    const scope = this.scope(orgId, target);
    let cents = 0;
    let start = periodStart;
    for (let i = 0; i < count; i++) {
      const previous = previousPeriod(period, start);
      cents += this.billedSynthetic(scope, previous.from, previous.to);
      cents += sum(this.injectedLines(scope, previous.from, previous.to).map((l) => l.cents));
      start = previous.from;
    }
    return money(cents / count);
  }

  /**
   * The synthetic billed cents of the scope's lines over a past window. A pure function of the organization,
   * the lines and the dates, so it is memoized: twelve years of an annual `autoAdjust` alert are read on
   * every alert read and every evaluation. Injected spend is added by the caller, never cached.
   */
  private billedSynthetic(scope: Scope, from: string, to: string): number {
    const key = `${scope.orgKey}\n${from}\n${to}\n${scope.lines.map((l) => `${l.accountId}/${l.service}`).join(",")}`;
    const known = this.history.get(key);
    if (known !== undefined) return known;
    let cents = 0;
    for (const date of datesBetween(from, to)) for (const line of scope.lines) cents += actualCents(scope.orgKey, line, date);
    if (this.history.size >= MAX_HISTORY_ENTRIES) this.history.clear();
    this.history.set(key, cents);
    return cents;
  }

  /**
   * Refuses (422) filters the schema accepts but that could never match in the organization (`unevaluable`):
   * judged against its connected accounts and, with a group, the group's members. An unknown group is left
   * to the caller's own answer (422 on a write, 404 on a read). `at` is where the filters sit in the request.
   */
  assertEvaluable(orgId: string, filters: CostFilters, groupId: string | null, at: string, tagPath?: string): void {
    const key = (m: Member) => `${m.provider}:${m.accountId}`;
    const connected = new Set(this.accounts.list(orgId).map(key));
    const group = groupId === null ? undefined : this.groups.get(orgId, groupId);
    const scope = group
      ? { connected, counted: new Set(group.members.map(key)), groupId }
      : { connected, counted: connected, groupId: null };
    const errors = unevaluable(filters, scope, at, tagPath);
    if (errors.length) throw unprocessable(`The filters name ${errors.map((e) => `${e.path} (${e.message})`).join("; ")}.`, errors);
  }

  /** What a `/cost/*` read counts: its group and filters, refused (422) when the filters could never match. */
  queryTarget(orgId: string, q: CostQuery): CostTarget {
    const filters = costFiltersOf(q);
    this.assertEvaluable(orgId, filters, q.groupId ?? null, "query", "tag");
    return { groupId: q.groupId ?? null, filters };
  }

  /** The cost lines of the whole organization or of one of its groups (404 for an unknown group), narrowed by filters. */
  private scope(orgId: string, target: CostTarget, today?: string): Scope {
    const org = this.orgs.byId(orgId);
    if (!org) throw new Error(`organization ${orgId} vanished`);
    const { groupId, filters } = target;
    const members: readonly Member[] = groupId === null ? this.accounts.list(orgId) : this.groups.require(orgId, groupId).members;
    return {
      orgId,
      orgKey: org.name,
      currency: org.currency,
      groupId,
      filters,
      lines: costLines(org.name, members).filter((line) => matchesFilters(filters, line)),
      accounts: new Set(members.map((m) => `${m.provider}:${m.accountId}`)),
      today: today ?? todayUtc(this.clocks.now(orgId)),
    };
  }

  /** Injected spend of the scope's accounts from `from` to `to`, up to today (it never lies in the future). */
  private injectedLines(scope: Scope, from: string, to: string): InjectedLine[] {
    const last = to < scope.today ? to : scope.today;
    if (last < from) return [];
    return this.injected
      .between(scope.orgId, from, last)
      .filter(
        (l) =>
          scope.accounts.has(`${l.provider}:${l.accountId}`) &&
          matchesFilters(scope.filters, { ...l, ...lineAttributes(scope.orgKey, l.provider, l.accountId, l.service) }),
      );
  }

  private window(scope: Scope, q: DateWindow) {
    return { from: q.from, to: q.to, currency: scope.currency, groupId: scope.groupId, filters: scope.filters };
  }

  private tally(scope: Scope, from: string, to: string): DayTally[] {
    const injected = new Map<string, Record<Provider, number>>();
    for (const line of this.injectedLines(scope, from, to)) {
      const day = injected.get(line.day) ?? { aws: 0, azure: 0 };
      day[line.provider] += line.cents;
      injected.set(line.day, day);
    }
    return datesBetween(from, to).map((date) => {
      const byProvider: Record<Provider, number> = { aws: 0, azure: 0 };
      const kind = date < scope.today ? "actual" : "forecast";
      let variance = 0;
      for (const line of scope.lines) {
        byProvider[line.provider] += kind === "actual" ? actualCents(scope.orgKey, line, date) : Math.round(expectedCents(line, date));
        if (kind === "forecast") variance += deviationCents(line, date) ** 2;
      }
      const extra = injected.get(date) ?? { aws: 0, azure: 0 };
      for (const p of PROVIDERS) byProvider[p] += extra[p];
      const billed = kind === "actual" ? { ...byProvider } : extra;
      return { date, kind, byProvider, billed, variance };
    });
  }
}

/** The first day a `YYYY-MM-DD` date can name. */
const FIRST_DAY = dayNumber("0000-01-01");

/** The window of the same length right before `q`; it must be expressible as YYYY-MM-DD dates (400 otherwise). */
function previousWindow(q: DateWindow): DateWindow {
  const length = dayNumber(q.to) - dayNumber(q.from) + 1;
  if (dayNumber(q.from) - length < FIRST_DAY) {
    throw invalidRequest("The comparison window before `from` would start before 0000-01-01.", [
      { path: "query.from", code: "too_small", message: `must be at least ${length} days after 0000-01-01` },
    ]);
  }
  return { from: addDays(q.from, -length), to: addDays(q.from, -1) };
}

function forecastTotals(days: readonly DayTally[]): ForecastTotals {
  const actual = sum(days.map(billedTotal));
  const total = sum(days.map(dayTotal));
  const projected = total - actual;
  const spread = Z80 * Math.sqrt(sum(days.map((d) => d.variance)));
  return {
    actual: money(actual),
    projected: money(projected),
    total: money(total),
    lower: money(Math.max(actual, total - spread)),
    upper: money(total + spread),
  };
}
