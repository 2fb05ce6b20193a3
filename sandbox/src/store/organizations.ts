import type { Scope } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { splitScopes } from "../identity/credentials";
import { newId } from "./ids";
import { sql } from "./statements";

export interface Organization {
  id: string;
  name: string;
  /** What tokens of this organization may ever do: a token's scopes are intersected with these. */
  permissions: Scope[];
  currency: string;
}

interface OrgRow {
  id: string;
  name: string;
  permissions: string;
  currency: string;
}

function fromRow(r: OrgRow): Organization {
  return { id: r.id, name: r.name, permissions: splitScopes(r.permissions), currency: r.currency };
}

export class Organizations {
  constructor(private readonly db: Db) {}

  create(name: string, permissions: readonly Scope[]): Organization {
    if (this.byName(name)) throw new Error(`an organization named "${name}" already exists`);
    const id = newId("org");
    sql(this.db, "INSERT INTO orgs (id, name, permissions, created_at) VALUES (?, ?, ?, ?)").run(
      id,
      name,
      permissions.join(" "),
      new Date().toISOString(),
    );
    return { id, name, permissions: [...permissions], currency: "USD" };
  }

  byName(name: string): Organization | undefined {
    const r = sql(this.db, "SELECT * FROM orgs WHERE name = ?").get(name) as OrgRow | undefined;
    return r && fromRow(r);
  }

  byId(id: string): Organization | undefined {
    const r = sql(this.db, "SELECT * FROM orgs WHERE id = ?").get(id) as OrgRow | undefined;
    return r && fromRow(r);
  }

  /** What the organization's tokens may ever do; none for an organization that does not exist. */
  permissions(id: string): Scope[] {
    return this.byId(id)?.permissions ?? [];
  }

  /** Like `byName`, but a missing organization is an error with a message for the command line. */
  require(name: string): Organization {
    const org = this.byName(name);
    if (!org)
      throw new Error(
        `no organization named "${name}" (create it with: npx --package @cloudcost/sandbox cloudcost-sandbox org create ${name})`,
      );
    return org;
  }
}
