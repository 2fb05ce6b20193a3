import { ALL_SCOPES, type Provider } from "@cloudcost/api/contract";
import { connectAccount } from "./connect-account";
import type { SandboxContext } from "./context";
import { bootstrapIdentity } from "../identity/bootstrap";
import { writeTransaction } from "../store/connection";
import { sql } from "../store/statements";

/** The organization every fresh data folder starts with (documented in sandbox/README.md). */
export const DEMO_ORG = "demo";

const DEMO_ACCOUNTS: readonly { provider: Provider; accountId: string; name: string }[] = [
  { provider: "aws", accountId: "111122223333", name: "Production (AWS)" },
  { provider: "aws", accountId: "444455556666", name: "Staging (AWS)" },
  { provider: "aws", accountId: "777788889999", name: "Data platform (AWS)" },
  { provider: "azure", accountId: "0b1f6471-1bf0-4dda-aec3-cb9272f09590", name: "Web apps (Azure)" },
  { provider: "azure", accountId: "6f1a3c2e-8d4b-4b7a-9c51-2e0d7f3a9b14", name: "Analytics (Azure)" },
];

/**
 * Seeds a fresh data folder once: the `demo` organization with connected accounts (their cost data
 * and findings follow from them) and a portal-made Cloud Group. `BEGIN IMMEDIATE` serialises a CLI
 * command and `serve` starting together on the same new folder.
 */
export function bootstrapDataFolder(ctx: SandboxContext): void {
  writeTransaction(ctx.db, () => {
    if (sql(ctx.db, "SELECT 1 FROM sandbox_meta WHERE key = 'bootstrapped'").get()) return;
    const org = ctx.orgs.create(DEMO_ORG, ALL_SCOPES);
    for (const a of DEMO_ACCOUNTS) connectAccount(ctx, org.id, a.provider, a.accountId, a.name);
    const production = ctx.groups.create(org.id, { name: "Production", description: "Production workloads on both clouds" }, "portal");
    ctx.groups.replaceMembers(
      org.id,
      production.id,
      [DEMO_ACCOUNTS[0]!, DEMO_ACCOUNTS[3]!].map((a) => ({ provider: a.provider, accountId: a.accountId }) as const),
    );
    bootstrapIdentity(ctx, org);
    sql(ctx.db, "INSERT INTO sandbox_meta (key, value) VALUES ('bootstrapped', ?)").run(new Date().toISOString());
  });
}
