import { writeTransaction, type Db } from "../store/connection";
import { newSecret } from "../store/ids";
import { instanceId } from "../store/instance";
import { digest } from "./hashing";
import type { User } from "./users";
import { sql } from "../store/statements";

/** Live sessions per user (decision): more than any person has browsers, and a bound on the table. */
export const MAX_SESSIONS_PER_USER = 100;

/** Sign-in sessions last a working day (decision); there is no sliding renewal. */
export const SESSION_TTL_SECONDS = 8 * 3600;

/** Browser sessions of signed-in users; the session ID lives in an HttpOnly cookie and is stored as a digest. */
export class Sessions {
  /** The data folder's ID, part of the session cookie's name. */
  readonly instance: string;

  constructor(private readonly db: Db) {
    this.instance = instanceId(db);
  }

  /**
   * Starts a session; expired ones are dropped on the way, and a user keeps at most
   * `MAX_SESSIONS_PER_USER` (the oldest are signed out), so the table does not grow with every sign-in
   * — the seeded user's password is public, and anyone may sign in as often as they like.
   */
  start(user: User): string {
    const id = newSecret("ccsess");
    const now = Date.now();
    writeTransaction(this.db, () => {
      sql(this.db, "DELETE FROM sessions WHERE expires_at <= ?").run(now);
      sql(this.db, "INSERT INTO sessions (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(
        digest(id),
        user.id,
        now,
        now + SESSION_TTL_SECONDS * 1000,
      );
      sql(
        this.db,
        "DELETE FROM sessions WHERE user_id = ? AND hash NOT IN (SELECT hash FROM sessions WHERE user_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)",
      ).run(user.id, user.id, MAX_SESSIONS_PER_USER);
    });
    return id;
  }

  /** The signed-in user's ID for a live session. */
  userId(sessionId: string): string | undefined {
    const r = sql(this.db, "SELECT user_id, expires_at FROM sessions WHERE hash = ?").get(digest(sessionId)) as
      { user_id: string; expires_at: number } | undefined;
    return r && r.expires_at > Date.now() ? r.user_id : undefined;
  }

  end(sessionId: string): void {
    sql(this.db, "DELETE FROM sessions WHERE hash = ?").run(digest(sessionId));
  }
}
