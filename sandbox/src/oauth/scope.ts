import { ALL_SCOPES, type Scope } from "@cloudcost/api/contract";
import { intersectScopes } from "../identity/credentials";
import { OAuthFailure } from "../errors";

/**
 * The scopes to grant for a request's `scope` parameter (RFC 6749 §3.3). `allowed` is what the client
 * may have here (its scopes ∩ the organization's permissions). Asking for anything outside it is
 * `invalid_scope` — never a silent downgrade; no `scope` means everything allowed.
 */
export function grantScopes(requested: string | undefined, allowed: readonly Scope[]): Scope[] {
  if (requested === undefined) {
    if (allowed.length === 0) throw new OAuthFailure("invalid_scope", "the client may not have any scope in this organization");
    return intersectScopes(ALL_SCOPES, allowed);
  }
  const tokens = requested.split(" ");
  for (const token of tokens) {
    if (token === "") throw new OAuthFailure("invalid_scope", "scope must be scope names separated by single spaces");
    if (!(ALL_SCOPES as readonly string[]).includes(token))
      throw new OAuthFailure("invalid_scope", `unknown scope "${token}"; known scopes: ${ALL_SCOPES.join(" ")}`);
    if (!allowed.includes(token as Scope)) throw new OAuthFailure("invalid_scope", `scope "${token}" is not allowed for this client`);
  }
  return intersectScopes(tokens as Scope[], allowed);
}

/** Parses a scope list a client registers (RFC 7591 `scope`); undefined when it is empty or names an unknown scope. */
export function knownScopes(list: string): Scope[] | undefined {
  const names = list.split(" ").filter(Boolean);
  const known = names.length > 0 && names.every((n) => (ALL_SCOPES as readonly string[]).includes(n));
  return known ? intersectScopes(names as Scope[], ALL_SCOPES) : undefined;
}
