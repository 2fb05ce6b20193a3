import type { SandboxContext } from "../service/context";
import type { Organization } from "../store/organizations";
import { Users } from "./users";

/** The documented sandbox user of the `demo` organization (sandbox/OAUTH.md, "Seeded user"). Not a secret: the sandbox is local. */
export const DEMO_USER = { email: "demo@cloudcost.dev", password: "sandbox-demo-password" } as const;

/**
 * DEMO_USER.password hashed once by `hashPassword` and kept: the password is public (the portal and `serve` print it), so
 * one salt for every sandbox hides nothing, and a fresh data folder is seeded without ~0.1 s of scrypt at each start
 * (CI starts a few hundred sandboxes: issue 39). test/portal/sign-in.test.ts signs in with the password on a fresh sandbox.
 */
export const DEMO_USER_PASSWORD_HASH = "scrypt$32768$8$1$e55KFC09MyJ9zoQOH6fPRQ$MXJjep1cmMteTaSVBkEdeQ72B5nqJWj086loXACQbdU";

/** Seeds identity data (the documented sandbox user) for a freshly bootstrapped organization. */
export function bootstrapIdentity(ctx: SandboxContext, org: Organization): void {
  const users = new Users(ctx.db);
  if (!users.byEmail(DEMO_USER.email)) users.create(org.id, DEMO_USER.email, DEMO_USER_PASSWORD_HASH);
}
