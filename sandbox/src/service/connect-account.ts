import type { ConnectedAccount, Provider } from "@cloudcost/api/contract";
import type { SandboxContext } from "./context";
import { writeTransaction } from "../store/connection";
import { initialFindings } from "../store/finding-catalog";

/** Connects a cloud account to an organization; the account comes with its initial findings. */
export function connectAccount(ctx: SandboxContext, orgId: string, provider: Provider, accountId: string, name?: string): ConnectedAccount {
  return writeTransaction(ctx.db, () => {
    const org = ctx.orgs.byId(orgId);
    if (!org) throw new Error(`no organization ${orgId}`);
    const account = ctx.accounts.add(orgId, provider, accountId, name);
    ctx.findings.add(orgId, initialFindings(org.name, account));
    return account;
  });
}
