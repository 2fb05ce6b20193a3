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
import type { Clocks } from "../store/clocks";
import type { InjectedSpend } from "../store/injected-spend";
import type { Events } from "../store/events";
import type { Deliveries } from "../store/deliveries";
import type { Outbox } from "../store/outbox";
import type { SigningSecrets } from "../store/signing-secrets";
import type { ReportRuns } from "../store/report-runs";

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
  /** Events engine (`serve --evaluate-every-ms`, `--webhook-backoff-ms`, `--webhook-timeout-ms`, `--smtp-url`); defaults in events/engine-options.ts. */
  events?: Partial<EngineOptions>;
}

/** How the events engine runs (issue 15). */
export interface EngineOptions {
  /** Period of the evaluation timer. */
  evaluateEveryMs: number;
  /** Delay before the first webhook retry; it doubles after each failed attempt. */
  webhookBackoffMs: number;
  /** Bound on one webhook attempt (connect, send, status line). */
  webhookTimeoutMs: number;
  /** `smtp://host:port`: captured messages are relayed there as well. */
  smtpUrl?: string;
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
  /** Per-organization clocks (sandbox controls): real time until set. */
  clocks: Clocks;
  /** Spend added through the sandbox controls. */
  injectedSpend: InjectedSpend;
  events: Events;
  deliveries: Deliveries;
  /** Captured e-mail. */
  outbox: Outbox;
  signingSecrets: SigningSecrets;
  reportRuns: ReportRuns;
}
