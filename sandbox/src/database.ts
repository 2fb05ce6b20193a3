import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ORGANIZATION_SCHEMA } from "./organizations";
import { CREDENTIAL_SCHEMA } from "./identity/credentials";
import { USER_SCHEMA } from "./identity/users";
import { SESSION_SCHEMA } from "./identity/sessions";
import { AUTHORIZATION_CODE_SCHEMA } from "./identity/authorization-codes";
import { ACCOUNT_SCHEMA } from "./store/accounts";
import { GROUP_SCHEMA } from "./store/groups";
import { ALERT_SCHEMA } from "./store/alerts";
import { REPORT_SCHEMA } from "./store/reports";
import { FINDING_SCHEMA } from "./store/findings";
import { SCAN_SCHEMA } from "./store/scans";
import { IDEMPOTENCY_SCHEMA } from "./store/idempotency-keys";
import { META_SCHEMA } from "./bootstrap";

export type Db = Database.Database;

/** Every module that owns tables contributes its idempotent DDL here; order matters for foreign keys. */
const SCHEMAS: readonly string[] = [
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
  META_SCHEMA,
];

/**
 * Opens (creating when needed) the sandbox database in `dir`. WAL lets the CLI write while `serve`
 * runs on the same folder; `synchronous = FULL` makes every committed (acknowledged) write survive
 * `kill -9` and power loss, which the crash test relies on.
 */
export function openDatabase(dir: string): Db {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, "sandbox.db"));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.transaction(() => SCHEMAS.forEach((sql) => db.exec(sql)))();
  return db;
}
