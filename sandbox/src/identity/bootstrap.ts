import type { SandboxContext } from "../context";
import type { Organization } from "../organizations";

/** Seeds identity data (the documented sandbox user) for a freshly bootstrapped organization. */
export function bootstrapIdentity(_ctx: SandboxContext, _org: Organization): void {}
