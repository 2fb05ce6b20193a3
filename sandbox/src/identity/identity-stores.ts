import type { Db } from "../store/connection";
import { AuthorizationCodes } from "./authorization-codes";
import { Sessions } from "./sessions";
import { Users } from "./users";

/** The identity stores beyond `SandboxContext.credentials`, shared by the authorization server and the portal. */
export interface IdentityStores {
  users: Users;
  sessions: Sessions;
  codes: AuthorizationCodes;
}

export function identityStores(db: Db): IdentityStores {
  return { users: new Users(db), sessions: new Sessions(db), codes: new AuthorizationCodes(db) };
}
