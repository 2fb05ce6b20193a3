import { AuthorizationRequest, type Scope } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import type { ClientRecord } from "../identity/credentials";
import { intersectScopes } from "../identity/credentials";
import { AuthorizationFailure, OAuthFailure, UntrustedRedirect } from "../errors";
import { parseParams, type Form } from "./form";
import { grantScopes } from "./scope";

/** A validated authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export interface ValidAuthorization {
  client: ClientRecord;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  /** What the client asked for, within its registered scopes. */
  scopes: Scope[];
  /** The original parameters, carried through the consent form. */
  params: AuthorizationRequest;
}

function single(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Client and redirect URI come first: only once both are verified may errors be redirected. Exact match, no patterns. */
function verifiedClient(ctx: SandboxContext, params: Record<string, unknown>): { client: ClientRecord; redirectUri: string } {
  const clientId = single(params, "client_id");
  const client = clientId === undefined ? undefined : ctx.credentials.client(clientId);
  if (!client || client.kind !== "public") throw new UntrustedRedirect("client_id is missing or names no registered public client");
  const redirectUri = single(params, "redirect_uri");
  if (redirectUri === undefined || !client.redirectUris.includes(redirectUri))
    throw new UntrustedRedirect("redirect_uri is missing or is not one of the client's registered redirect URIs (exact match)");
  return { client, redirectUri };
}

/** The parameters as a form: repeated parameters and another response_type are refused before the schema. */
function asForm(params: Record<string, unknown>): Form {
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== "string") throw new OAuthFailure("invalid_request", `parameter "${name}" must not be repeated`);
    form[name] = value;
  }
  if (form.response_type !== "code") throw new OAuthFailure("unsupported_response_type", 'response_type must be "code"');
  return form;
}

/** Validates query (GET) or form (POST) parameters of `/oauth/authorize`. */
export function validateAuthorization(ctx: SandboxContext, params: Record<string, unknown>): ValidAuthorization {
  const { client, redirectUri } = verifiedClient(ctx, params);
  const state = single(params, "state");
  try {
    const request = parseParams(AuthorizationRequest, asForm(params));
    const scopes = grantScopes(request.scope, client.scopes);
    return { client, redirectUri, state, codeChallenge: request.code_challenge, scopes, params: request };
  } catch (e) {
    throw e instanceof OAuthFailure ? new AuthorizationFailure(e, redirectUri, state) : e;
  }
}

/**
 * The scopes to grant in the signed-in user's organization. Explicitly requested scopes the organization
 * does not permit are `invalid_scope`; without `scope` the client gets whatever of its scopes is permitted.
 */
export function scopesForOrganization(auth: ValidAuthorization, permissions: readonly Scope[]): Scope[] {
  const granted = intersectScopes(auth.scopes, permissions);
  const denied = auth.scopes.filter((s) => !permissions.includes(s));
  const refuse = auth.params.scope === undefined ? granted.length === 0 : denied.length > 0;
  if (refuse)
    throw new AuthorizationFailure(
      new OAuthFailure("invalid_scope", `your organization does not permit: ${denied.join(" ")}`),
      auth.redirectUri,
      auth.state,
    );
  return granted;
}

/** RFC 6749 §4.1.2 / §4.1.2.1 with RFC 9207 `iss`: the response parameters go into the redirect URI's query. */
export function redirectWith(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: issuer })) if (v !== undefined) url.searchParams.append(k, v);
  return url.toString();
}
