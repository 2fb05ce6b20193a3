import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { join } from "node:path";

/**
 * Every row of every table of a sandbox's data folder but `token_use` (which records a token's last use on
 * any request), hashed: a write of any kind changes it, so an unchanged fingerprint means nothing was written.
 * Read through a second, read-only connection (WAL: the running sandbox's committed writes are seen).
 */
export function databaseFingerprint(dataDir: string): string {
  const db = new Database(join(dataDir, "sandbox.db"), { readonly: true, fileMustExist: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
      .map((t) => t.name)
      .filter((name) => name !== "token_use");
    const hash = createHash("sha256");
    for (const name of tables) hash.update(name).update(JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).raw().all()));
    return hash.digest("hex");
  } finally {
    db.close();
  }
}
