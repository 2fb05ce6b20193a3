import type { Member, Provider } from "@cloudcost/api";
import { dayNumber } from "./calendar";
import { unitHash } from "./hash";

/** Services an account may use; each account uses a deterministic subset. */
const SERVICES: Readonly<Record<Provider, readonly string[]>> = {
  aws: ["Amazon EC2", "Amazon S3", "Amazon RDS", "AWS Lambda", "Amazon CloudFront", "Amazon DynamoDB"],
  azure: ["Virtual Machines", "Storage Accounts", "Azure SQL Database", "App Service", "Azure Cosmos DB", "Azure Functions"],
};

/** Daily noise is uniform in ±NOISE around the expected cost. */
const NOISE = 0.15;
/** Standard deviation of a uniform ±NOISE factor: 2·NOISE/√12. */
const NOISE_SD = (2 * NOISE) / Math.sqrt(12);

/** One billed line: a service used by one account. */
export interface CostLine {
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
