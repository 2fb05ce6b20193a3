import type { SandboxContext } from "../service/context";
import type { Organization } from "../store/organizations";
import { Users } from "./users";

/** The documented sandbox user of the `demo` organization (sandbox/OAUTH.md, "Seeded user"). Not a secret: the sandbox is local. */
export const DEMO_USER = { email: "demo@cloudcost.dev", password: "sandbox-demo-password" } as const;

/** Seeds identity data (the documented sandbox user) for a freshly bootstrapped organization. */
export function bootstrapIdentity(ctx: SandboxContext, org: Organization): void {
  const users = new Users(ctx.db);
  if (!users.byEmail(DEMO_USER.email)) users.create(org.id, DEMO_USER.email, DEMO_USER.password);
}
