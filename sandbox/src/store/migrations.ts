import { GROUP_REFERENCING_TABLES } from "./tables";

/** DDL of a table of resources that may point at a Cloud Group (budget alerts, scheduled reports). */
function groupScopedTable(table: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${table} (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  group_id TEXT REFERENCES cloud_groups(id),
  fields TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ${table}_org ON ${table} (org_id, seq);
CREATE INDEX IF NOT EXISTS ${table}_group ON ${table} (group_id);`;
}

/** Tables of organizations. */
const ORGANIZATION_SCHEMA = `
CREATE TABLE IF NOT EXISTS orgs (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  permissions TEXT NOT NULL,
  currency TEXT NOT NULL DEFAULT 'USD',
  created_at TEXT NOT NULL
);`;

/** Tables of identity/credentials. */
const CREDENTIAL_SCHEMA = `
CREATE TABLE IF NOT EXISTS oauth_clients (
  id TEXT PRIMARY KEY,
  org_id TEXT REFERENCES orgs(id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('confidential', 'public')),
  secret_hash TEXT,
  scopes TEXT NOT NULL,
  redirect_uris TEXT NOT NULL DEFAULT '[]',
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  -- confidential clients belong to an organization and have a secret; dynamically registered public ones have neither
  CHECK ((kind = 'confidential') = (org_id IS NOT NULL AND secret_hash IS NOT NULL))
);
CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('api', 'access', 'refresh')),
  org_id TEXT NOT NULL REFERENCES orgs(id),
  client_id TEXT,
  user_id TEXT,
  family TEXT,
  scopes TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS tokens_client ON tokens (client_id);
CREATE INDEX IF NOT EXISTS tokens_family ON tokens (family);
CREATE INDEX IF NOT EXISTS tokens_org ON tokens (org_id, kind);
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens (expires_at);
CREATE INDEX IF NOT EXISTS tokens_revocation ON tokens (revoked_at);
-- when a token last authenticated a request; its own table so data folders made before it need no ALTER
CREATE TABLE IF NOT EXISTS token_use (
  hash TEXT PRIMARY KEY REFERENCES tokens(hash) ON DELETE CASCADE,
  last_used_at INTEGER NOT NULL
);`;

/** Tables of identity/users. */
const USER_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);`;

/** Tables of identity/sessions. */
const SESSION_SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_expiry ON sessions (expires_at);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id, created_at);`;

/** Tables of identity/authorization-codes. */
const AUTHORIZATION_CODE_SCHEMA = `
CREATE TABLE IF NOT EXISTS authorization_codes (
  hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scopes TEXT NOT NULL,
  family TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX IF NOT EXISTS authorization_codes_expiry ON authorization_codes (expires_at);`;

/** Tables of store/accounts. */
const ACCOUNT_SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  provider TEXT NOT NULL CHECK (provider IN ('aws', 'azure')),
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (org_id, provider, account_id)
);
CREATE INDEX IF NOT EXISTS accounts_org ON accounts (org_id, seq);`;

/** Tables of store/groups. */
const GROUP_SCHEMA = `
CREATE TABLE IF NOT EXISTS cloud_groups (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  description TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('api', 'portal')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (org_id, name_key)
);
CREATE TABLE IF NOT EXISTS group_members (
  group_id TEXT NOT NULL REFERENCES cloud_groups(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  account_id TEXT NOT NULL,
  PRIMARY KEY (group_id, provider, account_id)
);
CREATE INDEX IF NOT EXISTS cloud_groups_org ON cloud_groups (org_id, seq);`;

/** Tables of store/alerts. */
const ALERT_SCHEMA = groupScopedTable(GROUP_REFERENCING_TABLES.alert);

/** Tables of store/reports. */
const REPORT_SCHEMA = groupScopedTable(GROUP_REFERENCING_TABLES.report);

/** Tables of store/findings. */
const FINDING_SCHEMA = `
CREATE TABLE IF NOT EXISTS findings (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  kind TEXT NOT NULL CHECK (kind IN ('insight', 'waste', 'recommendation')),
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  severity TEXT NOT NULL,
  provider TEXT NOT NULL,
  account_id TEXT NOT NULL,
  service TEXT NOT NULL,
  savings_cents INTEGER,
  detected_at TEXT NOT NULL,
  acknowledged_at TEXT
);
CREATE INDEX IF NOT EXISTS findings_open ON findings (org_id, kind, acknowledged_at, seq);`;

/** Tables of store/scans. */
const SCAN_SCHEMA = `
CREATE TABLE IF NOT EXISTS scan_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  step_ms INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  result TEXT,
  error TEXT
);
CREATE INDEX IF NOT EXISTS scan_runs_pending ON scan_runs (state) WHERE state IN ('queued', 'running');
CREATE INDEX IF NOT EXISTS scan_runs_org ON scan_runs (org_id, seq);`;

/** Tables of store/idempotency-keys. */
const IDEMPOTENCY_SCHEMA = `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  org_id TEXT NOT NULL REFERENCES orgs(id),
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT,
  headers TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, key)
);
CREATE INDEX IF NOT EXISTS idempotency_keys_age ON idempotency_keys (created_at);
CREATE TABLE IF NOT EXISTS idempotency_replays (
  org_id TEXT NOT NULL,
  key TEXT NOT NULL,
  replayed_at INTEGER NOT NULL,
  PRIMARY KEY (org_id, key)
);`;

/** Tables of store/clocks and store/injected-spend (sandbox controls, issue 15). */
const CLOCK_AND_SPEND_SCHEMA = `
CREATE TABLE IF NOT EXISTS org_clocks (
  org_id TEXT PRIMARY KEY REFERENCES orgs(id),
  now_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS injected_spend (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  provider TEXT NOT NULL CHECK (provider IN ('aws', 'azure')),
  account_id TEXT NOT NULL,
  service TEXT NOT NULL,
  day TEXT NOT NULL,
  cents INTEGER NOT NULL CHECK (cents > 0),
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS injected_spend_org_day ON injected_spend (org_id, day);`;

/**
 * Tables of store/events, store/deliveries, store/outbox, store/signing-secrets and store/report-runs.
 * `dedupe_key` is UNIQUE: an event is inserted with INSERT OR IGNORE under the key of what caused it
 * (alert, period, threshold; report, run time), so a second evaluation — more spend, a restart, another
 * `serve` on the same folder — cannot make a second event, and only the inserting transaction
 * creates deliveries and messages.
 */
const EVENT_SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  type TEXT NOT NULL,
  dedupe_key TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- GET /events lists newest first by the time an event happened on the organization's clock, ties by ID;
-- the insertion-order indexes of older data folders are dropped
DROP INDEX IF EXISTS events_org;
DROP INDEX IF EXISTS events_org_type;
CREATE INDEX IF NOT EXISTS events_org_time ON events (org_id, created_at, id);
CREATE INDEX IF NOT EXISTS events_org_type_time ON events (org_id, type, created_at, id);
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
  target TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts TEXT NOT NULL DEFAULT '[]',
  max_attempts INTEGER NOT NULL,
  next_attempt_at INTEGER,
  claimed_until INTEGER,
  UNIQUE (event_id, channel, target)
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  org_id TEXT NOT NULL REFERENCES orgs(id),
  event_id TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  attachments TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_org ON outbox (org_id, seq);
CREATE TABLE IF NOT EXISTS outbox_attachments (
  message_id TEXT NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
  n INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (message_id, n)
);
CREATE TABLE IF NOT EXISTS signing_secrets (
  org_id TEXT PRIMARY KEY REFERENCES orgs(id),
  secret TEXT NOT NULL,
  previous TEXT,
  previous_until INTEGER
);
CREATE TABLE IF NOT EXISTS report_runs (
  report_id TEXT PRIMARY KEY REFERENCES scheduled_reports(id) ON DELETE CASCADE,
  anchor_ms INTEGER NOT NULL,
  last_run_at TEXT
);`;

/** Tables of bootstrap. */
const META_SCHEMA = `
CREATE TABLE IF NOT EXISTS sandbox_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;

/**
 * Every table's idempotent DDL, in foreign-key order. Each runs on every open (`CREATE … IF NOT EXISTS`);
 * this list knows table shapes only, never the repositories that use them.
 */
export const MIGRATIONS: readonly string[] = [
  ORGANIZATION_SCHEMA,
  CREDENTIAL_SCHEMA,
  USER_SCHEMA,
  SESSION_SCHEMA,
  AUTHORIZATION_CODE_SCHEMA,
  ACCOUNT_SCHEMA,
  GROUP_SCHEMA,
  ALERT_SCHEMA,
  REPORT_SCHEMA,
  FINDING_SCHEMA,
  SCAN_SCHEMA,
  IDEMPOTENCY_SCHEMA,
  CLOCK_AND_SPEND_SCHEMA,
  EVENT_SCHEMA,
  META_SCHEMA,
];
