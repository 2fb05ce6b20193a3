import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "./migrations";

export type Db = Database.Database;

/** How long a connection waits for another one's write lock (SQLite's busy handler) before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
/** How often a transaction that still met SQLITE_BUSY is tried again, and the pause between tries. */
const BUSY_RETRIES = 20;
const BUSY_PAUSE_MS = 50;

/** SQLITE_BUSY or SQLITE_LOCKED (with their extended codes): another connection holds the lock. */
export const isBusy = (error: unknown): boolean =>
  typeof error === "object" && error !== null && /^SQLITE_(BUSY|LOCKED)/.test(String((error as { code?: unknown }).code));

/** Sleeps without returning to the event loop: the database calls around it are synchronous too. */
const pause = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `work` and tries again on SQLITE_BUSY / SQLITE_LOCKED, which the busy handler does not cover in
 * every case (WAL recovery by another connection; a read transaction that turns into a write after
 * another connection committed, SQLITE_BUSY_SNAPSHOT). Only for work that changes nothing when it fails:
 * a single statement or a whole transaction.
 */
export function retryBusy<T>(work: () => T): T {
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || attempt >= BUSY_RETRIES) throw error;
      pause(BUSY_PAUSE_MS * (attempt + 1));
    }
  }
}

/**
 * Runs `work` as one write transaction: `BEGIN IMMEDIATE` takes the write lock first (waiting for it
 * through the busy handler), so a transaction that reads before it writes can never fail half-way with
 * SQLITE_BUSY_SNAPSHOT, and the whole transaction is retried if the lock still could not be had. Nested
 * in another transaction it is a savepoint of that one.
 */
export function writeTransaction<T>(db: Db, work: () => T): T {
  if (db.inTransaction) return db.transaction(work)();
  return retryBusy(() => db.transaction(work).immediate());
}

/** Thrown to end a dry-run's transaction: better-sqlite3 rolls back a transaction its function throws out of. */
const UNDO = Symbol("dry-run: undo every write");

/**
 * Runs `work` and undoes every write it made (issue 38, the contract's dry-runs): its answer or its error
 * is what the real request would get, and the database is as it was. Nested in a transaction (the route's),
 * it is a savepoint rolled back; alone, a transaction rolled back.
 */
export function withoutWriting<T>(db: Db, work: () => T): T {
  let answer: { value: T } | undefined;
  try {
    db.transaction(() => {
      answer = { value: work() };
      throw UNDO;
    })();
  } catch (error) {
    if (error !== UNDO) throw error;
  }
  if (answer === undefined) throw new Error("dry-run ended without an answer");
  return answer.value;
}

/**
 * Opens (creating when needed) the sandbox database in `dir`. WAL lets the CLI write while `serve`
 * runs on the same folder; `synchronous = FULL` makes every committed (acknowledged) write survive
 * `kill -9` and power loss, which the crash test relies on. The busy timeout is set when the connection
 * opens, before anything else touches the file, for every connection: `serve` and each CLI command.
 */
export function openDatabase(dir: string): Db {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, "sandbox.db"), { timeout: BUSY_TIMEOUT_MS });
  try {
    retryBusy(() => db.pragma("journal_mode = WAL"));
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    writeTransaction(db, () => MIGRATIONS.forEach((ddl) => db.exec(ddl)));
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
