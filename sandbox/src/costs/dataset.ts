import { GLOBAL_SERVICES, KNOWN_SERVICES, type Member, type Provider } from "@cloudcost/api/contract";
import { dayNumber } from "./calendar";
import { unitHash } from "./hash";

/** Services an account may use (the contract's known services); each account uses a deterministic subset. */
const SERVICES = KNOWN_SERVICES;

/** The regions the synthetic accounts run in (a few of the contract's known ones): each account has a home region. */
const REGIONS: Readonly<Record<Provider, readonly string[]>> = {
  aws: ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1"],
  azure: ["eastus", "westeurope", "northeurope", "southeastasia"],
};

/**
 * The organization's cost allocation tags: every line carries each key with one of its values. A filter
 * on another key could never match, so the service refuses it (like AWS, which counts only activated
 * cost allocation tags).
 */
export const TAG_VALUES: Readonly<Record<string, readonly string[]>> = {
  team: ["platform", "data", "web", "ml"],
  env: ["prod", "staging", "dev"],
  "cost-center": ["cc-100", "cc-200", "cc-300"],
};
export const TAG_KEYS: readonly string[] = Object.keys(TAG_VALUES);

/** Where a line is billed and how it is tagged: a pure function of (organization, account, service). */
export interface LineAttributes {
  region: string;
  tags: Readonly<Record<string, string>>;
}

const pick = <T>(list: readonly T[], u: number): T => list[Math.floor(u * list.length)] as T;

/**
 * The region and tags of an account's service: the account's home region (a second region for about a
 * third of its services, `global` for global services); `team` and `cost-center` per account, `env` per
 * service. Injected spend on (account, service) gets the same attributes.
 */
export function lineAttributes(orgKey: string, provider: Provider, accountId: string, service: string): LineAttributes {
  const home = pick(REGIONS[provider], unitHash(orgKey, accountId, "home-region"));
  const region = GLOBAL_SERVICES.includes(service)
    ? "global"
    : unitHash(orgKey, accountId, service, "other-region") < 0.3
      ? pick(REGIONS[provider], unitHash(orgKey, accountId, service, "region"))
      : home;
  return {
    region,
    tags: {
      team: pick(TAG_VALUES.team ?? [], unitHash(orgKey, accountId, "team")),
      env: pick(TAG_VALUES.env ?? [], unitHash(orgKey, accountId, service, "env")),
      "cost-center": pick(TAG_VALUES["cost-center"] ?? [], unitHash(orgKey, accountId, "cost-center")),
    },
  };
}

/** Daily noise is uniform in ±NOISE around the expected cost. */
const NOISE = 0.15;
/** Standard deviation of a uniform ±NOISE factor: 2·NOISE/√12. */
const NOISE_SD = (2 * NOISE) / Math.sqrt(12);

/** One billed line: a service used by one account, in one region, with its tags. */
export interface CostLine extends LineAttributes {
  provider: Provider;
  accountId: string;
  service: string;
  /** Typical daily cost in cents. */
  baseCents: number;
  /** Phase of the yearly seasonality, so lines do not move in lockstep. */
  phase: number;
}

/** The lines of the given accounts; `orgKey` seeds the data so organizations differ. */
export function costLines(orgKey: string, accounts: readonly Member[]): CostLine[] {
  return accounts.flatMap((a) =>
    SERVICES[a.provider]
      .filter((service, i) => i === 0 || unitHash(orgKey, a.accountId, service, "uses") < 0.7)
      .map((service) => ({
        provider: a.provider,
        accountId: a.accountId,
        service,
        ...lineAttributes(orgKey, a.provider, a.accountId, service),
        baseCents: Math.round(300 + 40_000 * unitHash(orgKey, a.accountId, service, "base") ** 2),
        phase: 2 * Math.PI * unitHash(orgKey, a.accountId, service, "phase"),
      })),
  );
}

/** Expected cost of a line on a date (cents, unrounded): seasonality and a weekend dip. */
export function expectedCents(line: CostLine, date: string): number {
  const day = dayNumber(date);
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday; 0 = Sunday
  const weekend = weekday === 0 || weekday === 6 ? 0.8 : 1;
  return line.baseCents * weekend * (1 + 0.15 * Math.sin((2 * Math.PI * day) / 365 + line.phase));
}

/** Standard deviation of a line's cost on a date (cents): the forecast interval is built from it. */
export function deviationCents(line: CostLine, date: string): number {
  return expectedCents(line, date) * NOISE_SD;
}

/** The billed (actual) cost of a line on a past date, in whole cents. */
export function actualCents(orgKey: string, line: CostLine, date: string): number {
  const noise = 1 + NOISE * (2 * unitHash(orgKey, line.accountId, line.service, date) - 1);
  return Math.round(expectedCents(line, date) * noise);
}
