import type { Provider } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { sql } from "./statements";

/** Spend added by `POST /sandbox/v1/spend` on top of the synthetic dataset, in whole cents per (account, service, day). */
export interface InjectedLine {
  provider: Provider;
  accountId: string;
  service: string;
  day: string;
  cents: number;
}

interface Row {
  provider: Provider;
  account_id: string;
  service: string;
  day: string;
  cents: number;
}

export class InjectedSpend {
  constructor(private readonly db: Db) {}

  add(orgId: string, line: InjectedLine): void {
    sql(
      this.db,
      "INSERT INTO injected_spend (org_id, provider, account_id, service, day, cents, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ).run(orgId, line.provider, line.accountId, line.service, line.day, line.cents, new Date().toISOString());
  }

  /** The organization's injected lines on the days `from` to `to` (inclusive), summed per account, service and day. */
  between(orgId: string, from: string, to: string): InjectedLine[] {
    const rows = sql(
      this.db,
      `SELECT provider, account_id, service, day, SUM(cents) AS cents FROM injected_spend
       WHERE org_id = ? AND day >= ? AND day <= ? GROUP BY provider, account_id, service, day`,
    ).all(orgId, from, to) as Row[];
    return rows.map((r) => ({ provider: r.provider, accountId: r.account_id, service: r.service, day: r.day, cents: r.cents }));
  }
}
