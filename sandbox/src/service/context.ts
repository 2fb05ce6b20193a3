import type { Costs } from "../costs/cost-reads";
import type { Db } from "../store/connection";
import type { Credentials } from "../identity/credentials";
import type { Organizations } from "../store/organizations";
import type { Accounts } from "../store/accounts";
import type { Alerts } from "../store/alerts";
import type { Findings } from "../store/findings";
import type { Groups } from "../store/groups";
import type { IdempotencyKeys } from "../store/idempotency-keys";
import type { Reports } from "../store/reports";
import type { Scans } from "../store/scans";

export interface SandboxConfig {
  dataDir: string;
  /** Origin the sandbox is reachable at, e.g. `http://127.0.0.1:8787`: `{auth_url}`; `{base_url}` is this + `/api/v1`. */
  origin: string;
  /** Lifetime of access tokens from `/oauth/token`. */
  accessTokenTtlSeconds: number;
  /** Lifetime of authorization codes; 300 s when unset (oauth/authorize.ts). Tests shorten it to see codes expire. */
  authorizationCodeTtlSeconds?: number;
  /** How long a scan run stays queued, and then running (`serve --scan-step-ms`). */
  scanStepMs: number;
  /** How long expired or revoked credentials are kept before they are purged (`serve --retention`); a day when unset. */
  retentionSeconds?: number;
  /** Host names requests may carry in `Host` (DNS-rebinding defence); the loopback names when unset. */
  allowedHosts?: ReadonlySet<string>;
}

/** Everything a route needs, built once per server (and by the CLI on the same data folder). */
export interface SandboxContext {
  db: Db;
  config: SandboxConfig;
  orgs: Organizations;
  credentials: Credentials;
  /** Connected cloud accounts (`list(orgId)` returns contract `ConnectedAccount`s). */
  accounts: Accounts;
  /** Cloud Groups: `list(orgId)`, `create(orgId, {name, description}, "api" | "portal")`, … (contract `CloudGroup`). */
  groups: Groups;
  /** Budget alerts: `list(orgId)` returns contract `BudgetAlert`s with their spend fields. */
  alerts: Alerts;
  /** Scheduled reports: `list(orgId)` returns contract `ScheduledReport`s with `nextRunAt`. */
  reports: Reports;
  findings: Findings;
  scans: Scans;
  /** Cost reads over the synthetic dataset. */
  costs: Costs;
  idempotencyKeys: IdempotencyKeys;
}
