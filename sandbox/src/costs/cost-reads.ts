import {
  periodContaining,
  type BudgetPeriod,
  type CostByDay,
  type CostByService,
  type CostComparison,
  type CostForecast,
  type CostQuery,
  type CostSummary,
  type ForecastTotals,
  type Member,
  type Provider,
} from "@cloudcost/api";
import type { Organizations } from "../store/organizations";
import type { Accounts } from "../store/accounts";
import { invalidRequest } from "../errors";
import type { Groups } from "../store/groups";
import { addDays, datesBetween, dayNumber, todayUtc } from "./calendar";
import { actualCents, costLines, deviationCents, expectedCents, type CostLine } from "./dataset";

/** Every read lists both providers, in this order, even when one costs nothing. */
const PROVIDERS: readonly Provider[] = ["aws", "azure"];
/** z-score of an 80% two-sided interval. */
const Z80 = 1.2816;

const money = (cents: number): number => Math.round(cents) / 100;

interface Scope {
  orgKey: string;
  currency: string;
  groupId: string | null;
  lines: CostLine[];
}

/** One day of a window: billed (up to yesterday) or forecast (today onwards), in cents per provider. */
interface DayTally {
  date: string;
  kind: "actual" | "forecast";
  byProvider: Record<Provider, number>;
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

/**
 * The cost reads over the deterministic synthetic dataset. A Cloud Group's cost is the cost of its
 * member accounts, read from the store on every call, so a new group or member counts at once (spec rule 1).
 */
export class Costs {
  constructor(
    private readonly orgs: Organizations,
    private readonly accounts: Accounts,
    private readonly groups: Groups,
  ) {}

  summary(orgId: string, q: CostQuery): CostSummary {
    const scope = this.scope(orgId, q.groupId ?? null);
    const days = this.tally(scope, q.from, q.to);
    const actual = days.filter((d) => d.kind === "actual");
    return {
      ...this.window(scope, q),
      total: money(sum(actual.map(dayTotal))),
      byProvider: PROVIDERS.map((provider) => ({ provider, amount: money(sum(actual.map((d) => d.byProvider[provider]))) })),
      forecast: forecastTotals(days),
    };
  }

  byService(orgId: string, q: CostQuery): CostByService {
    const scope = this.scope(orgId, q.groupId ?? null);
    const billed = datesBetween(q.from, q.to).filter((d) => d < todayUtc());
    const totals = new Map<string, { service: string; provider: Provider; cents: number }>();
    for (const line of scope.lines) {
      const key = `${line.provider}:${line.service}`;
      const entry = totals.get(key) ?? { service: line.service, provider: line.provider, cents: 0 };
      entry.cents += sum(billed.map((date) => actualCents(scope.orgKey, line, date)));
      totals.set(key, entry);
    }
    const items = [...totals.values()].sort((a, b) => b.cents - a.cents || a.service.localeCompare(b.service));
    return {
      ...this.window(scope, q),
      total: money(sum(items.map((i) => i.cents))),
      items: items.map((i) => ({ service: i.service, provider: i.provider, amount: money(i.cents) })),
    };
  }

  /** Billed days only: the window's days up to yesterday. */
  byDay(orgId: string, q: CostQuery): CostByDay {
    const scope = this.scope(orgId, q.groupId ?? null);
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

  forecast(orgId: string, q: CostQuery): CostForecast {
    const scope = this.scope(orgId, q.groupId ?? null);
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
  comparison(orgId: string, q: CostQuery): CostComparison {
    const previous = previousWindow(q);
    const scope = this.scope(orgId, q.groupId ?? null);
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

  /** Spend of an alert's scope in the current calendar period (UTC): billed so far, and forecast for the whole period. */
  periodSpend(orgId: string, groupId: string | null, period: BudgetPeriod): PeriodSpend {
    const scope = this.scope(orgId, groupId);
    const { from, to } = periodContaining(period, new Date());
    const totals = forecastTotals(this.tally(scope, from, to));
    return { currentSpend: totals.actual, forecastedSpend: totals.total, spendCurrency: scope.currency, periodStart: from, periodEnd: to };
  }

  /** The cost lines of the whole organization or of one of its groups (404 for an unknown group). */
  private scope(orgId: string, groupId: string | null): Scope {
    const org = this.orgs.byId(orgId);
    if (!org) throw new Error(`organization ${orgId} vanished`);
    const members: readonly Member[] = groupId === null ? this.accounts.list(orgId) : this.groups.require(orgId, groupId).members;
    return { orgKey: org.name, currency: org.currency, groupId, lines: costLines(org.name, members) };
  }

  private window(scope: Scope, q: CostQuery) {
    return { from: q.from, to: q.to, currency: scope.currency, groupId: scope.groupId };
  }

  private tally(scope: Scope, from: string, to: string): DayTally[] {
    const today = todayUtc();
    return datesBetween(from, to).map((date) => {
      const byProvider: Record<Provider, number> = { aws: 0, azure: 0 };
      const kind = date < today ? "actual" : "forecast";
      let variance = 0;
      for (const line of scope.lines) {
        byProvider[line.provider] += kind === "actual" ? actualCents(scope.orgKey, line, date) : Math.round(expectedCents(line, date));
        if (kind === "forecast") variance += deviationCents(line, date) ** 2;
      }
      return { date, kind, byProvider, variance };
    });
  }
}

/** The first day a `YYYY-MM-DD` date can name. */
const FIRST_DAY = dayNumber("0000-01-01");

/** The window of the same length right before `q`; it must be expressible as YYYY-MM-DD dates (400 otherwise). */
function previousWindow(q: CostQuery): { from: string; to: string } {
  const length = dayNumber(q.to) - dayNumber(q.from) + 1;
  if (dayNumber(q.from) - length < FIRST_DAY) {
    throw invalidRequest("The comparison window before `from` would start before 0000-01-01.", [
      { path: "query.from", code: "too_small", message: `must be at least ${length} days after 0000-01-01` },
    ]);
  }
  return { from: addDays(q.from, -length), to: addDays(q.from, -1) };
}

function forecastTotals(days: readonly DayTally[]): ForecastTotals {
  const actual = sum(days.filter((d) => d.kind === "actual").map(dayTotal));
  const projected = sum(days.filter((d) => d.kind === "forecast").map(dayTotal));
  const spread = Z80 * Math.sqrt(sum(days.map((d) => d.variance)));
  const total = actual + projected;
  return {
    actual: money(actual),
    projected: money(projected),
    total: money(total),
    lower: money(Math.max(actual, total - spread)),
    upper: money(total + spread),
  };
}
