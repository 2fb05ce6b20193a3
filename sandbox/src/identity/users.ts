import type { Db } from "../store/connection";
import { newId } from "../store/ids";
import { hashPassword, verifyPassword } from "./hashing";
import { sql } from "../store/statements";

/** A sandbox user who signs in to the portal and consents on the authorization page. */
export interface User {
  id: string;
  orgId: string;
  email: string;
}

interface UserRow {
  id: string;
  org_id: string;
  email: string;
  password_hash: string;
}

const fromRow = (r: UserRow): User => ({ id: r.id, orgId: r.org_id, email: r.email });

/** Used for unknown e-mail addresses so that a miss costs the same scrypt work as a wrong password. */
let decoyHash: string | undefined;

/** Sandbox users; passwords are stored only as scrypt hashes. E-mail addresses compare case-insensitively. */
export class Users {
  constructor(private readonly db: Db) {}

  /** A user whose password is hashed already (`hashPassword`'s format): the seeded demo user is the only one. */
  create(orgId: string, email: string, passwordHash: string): User {
    const user: User = { id: newId("usr"), orgId, email: email.trim().toLowerCase() };
    sql(this.db, "INSERT INTO users (id, org_id, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)").run(
      user.id,
      orgId,
      user.email,
      passwordHash,
      new Date().toISOString(),
    );
    return user;
  }

  byId(id: string): User | undefined {
    const r = sql(this.db, "SELECT * FROM users WHERE id = ?").get(id) as UserRow | undefined;
    return r && fromRow(r);
  }

  byEmail(email: string): User | undefined {
    const r = this.rowByEmail(email);
    return r && fromRow(r);
  }

  /** The user when the password matches; undefined otherwise, in about the same time whether or not the user exists. */
  async verify(email: string, password: string): Promise<User | undefined> {
    const r = this.rowByEmail(email);
    if (!r) {
      decoyHash ??= hashPassword("decoy");
      await verifyPassword(password, decoyHash);
      return undefined;
    }
    return (await verifyPassword(password, r.password_hash)) ? fromRow(r) : undefined;
  }

  private rowByEmail(email: string): UserRow | undefined {
    return sql(this.db, "SELECT * FROM users WHERE email = ?").get(email.trim().toLowerCase()) as UserRow | undefined;
  }
}
