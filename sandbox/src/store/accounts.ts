import { Member, type ConnectedAccount, type Page, type PageQuery, type Provider } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { pageOfTable } from "./paging";
import { conflict, invalidRequest } from "../errors";
import { sql } from "./statements";

interface AccountRow {
  seq: number;
  provider: Provider;
  account_id: string;
  name: string;
}

const view = (r: AccountRow): ConnectedAccount => ({ provider: r.provider, accountId: r.account_id, name: r.name });

/** The cloud accounts connected to each organization: the only possible Cloud Group members. */
export class Accounts {
  constructor(private readonly db: Db) {}

  /** Connects an account; the ID is validated and normalised by the contract's `Member` schema. */
  add(orgId: string, provider: Provider, accountId: string, name?: string): ConnectedAccount {
    const parsed = Member.safeParse({ provider, accountId });
    if (!parsed.success)
      throw invalidRequest(`"${accountId}" is not a valid ${provider} account ID.`, [
        { path: "accountId", code: "invalid_format", message: parsed.error.issues[0]?.message ?? "invalid" },
      ]);
    const id = parsed.data.accountId;
    if (this.isConnected(orgId, parsed.data)) throw conflict(`${provider} account ${id} is already connected.`);
    const label = name ?? `${provider === "aws" ? "AWS account" : "Azure subscription"} ${id}`;
    sql(this.db, "INSERT INTO accounts (org_id, provider, account_id, name, created_at) VALUES (?, ?, ?, ?, ?)").run(
      orgId,
      provider,
      id,
      label,
      new Date().toISOString(),
    );
    return { provider, accountId: id, name: label };
  }

  list(orgId: string): ConnectedAccount[] {
    return (sql(this.db, "SELECT * FROM accounts WHERE org_id = ? ORDER BY seq").all(orgId) as AccountRow[]).map(view);
  }

  page(orgId: string, q: PageQuery): Page<ConnectedAccount> {
    return pageOfTable({ db: this.db, list: "accounts", orgId }, "accounts", q, view);
  }

  isConnected(orgId: string, m: Member): boolean {
    return (
      sql(this.db, "SELECT 1 FROM accounts WHERE org_id = ? AND provider = ? AND account_id = ?").get(orgId, m.provider, m.accountId) !==
      undefined
    );
  }
}
