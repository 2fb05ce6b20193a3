import type { Db } from "./connection";
import { conflict } from "../errors";
import { sql } from "./statements";

/** An organization's clock: real time until set, then frozen at the time set (issue 15, sandbox controls). */
export interface ClockReading {
  now: Date;
  frozen: boolean;
}

/**
 * Per-organization clocks. Each organization keeps real time until a clock control sets it; from then on
 * its time stands still where it was set, and moves only forward. Other organizations keep real time.
 * Persisted, so it survives a restart and is shared by every process on the data folder.
 */
export class Clocks {
  constructor(private readonly db: Db) {}

  read(orgId: string): ClockReading {
    const row = sql(this.db, "SELECT now_ms FROM org_clocks WHERE org_id = ?").get(orgId) as { now_ms: number } | undefined;
    return row ? { now: new Date(row.now_ms), frozen: true } : { now: new Date(), frozen: false };
  }

  now(orgId: string): Date {
    return this.read(orgId).now;
  }

  /** Sets the clock (forward only: an earlier time is a 409). Run inside the caller's write transaction. */
  set(orgId: string, to: Date): void {
    const current = this.now(orgId);
    if (to.getTime() < current.getTime()) {
      throw conflict(`The organization's clock only moves forward: it is ${current.toISOString()}, so ${to.toISOString()} is in its past.`);
    }
    sql(this.db, "INSERT INTO org_clocks (org_id, now_ms) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET now_ms = excluded.now_ms").run(
      orgId,
      to.getTime(),
    );
  }
}
