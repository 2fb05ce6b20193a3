import { authorizeAsUser } from "./demo-user";
import { loadOAuth, type OAuth } from "./oauth4webapi";
import { hiddenFields, type UserAgent } from "./user-agent";

/** RFC 8414 discovery of the sandbox's authorization server. */
export async function discover(origin: string): Promise<OAuth.AuthorizationServer> {
  const { oauth, insecure } = await loadOAuth();
  const issuer = new URL(origin);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
}

export const REDIRECT_URI = "http://127.0.0.1:8976/callback";

/** RFC 7591 registration of a public PKCE client. */
export async function registerPublicClient(as: OAuth.AuthorizationServer, metadata: Partial<OAuth.Client> = {}): Promise<OAuth.Client> {
  const { oauth, insecure } = await loadOAuth();
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [REDIRECT_URI], client_name: "test agent", token_endpoint_auth_method: "none", ...metadata },
    insecure,
  );
  return (await oauth.processDynamicClientRegistrationResponse(response)) as OAuth.Client;
}

export interface PkceRequest {
  url: URL;
  verifier: string;
  state: string;
}

/** An authorization URL with a fresh S256 challenge and state. */
export async function authorizationRequest(
  as: OAuth.AuthorizationServer,
  client: OAuth.Client,
  extra: Record<string, string> = {},
): Promise<PkceRequest> {
  const { oauth } = await loadOAuth();
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params = {
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: "code",
    scope: "read write",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url, verifier, state };
}

/** Runs authorization (as the demo user) and validates the response (state, RFC 9207 iss); resolves with the callback parameters. */
export async function authorize(
  as: OAuth.AuthorizationServer,
  client: OAuth.Client,
  agent: UserAgent,
  extra: Record<string, string> = {},
): Promise<{ params: URLSearchParams; request: PkceRequest }> {
  const { oauth } = await loadOAuth();
  const request = await authorizationRequest(as, client, extra);
  const callback = await authorizeAsUser(agent, request.url);
  return { params: oauth.validateAuthResponse(as, client, callback, request.state), request };
}

/** The code exchange, returning the raw response for negative tests. */
export async function exchange(
  as: OAuth.AuthorizationServer,
  client: OAuth.Client,
  params: URLSearchParams,
  verifier: string,
  redirectUri = REDIRECT_URI,
): Promise<Response> {
  const { oauth, insecure } = await loadOAuth();
  return oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
}

/** The whole user flow: authorize, exchange, process. */
export async function userTokens(
  as: OAuth.AuthorizationServer,
  client: OAuth.Client,
  agent: UserAgent,
  extra: Record<string, string> = {},
): Promise<OAuth.TokenEndpointResponse> {
  const { oauth } = await loadOAuth();
  const { params, request } = await authorize(as, client, agent, extra);
  return oauth.processAuthorizationCodeResponse(as, client, await exchange(as, client, params, request.verifier));
}

/** A confidential client created on the portal's API Access page; the secret is read from the one page that shows it. */
export async function portalClient(
  agent: UserAgent,
  name: string,
  scopes: string[],
): Promise<{ client_id: string; client_secret: string; page: string }> {
  const form = hiddenFields(await (await agent.get("/portal/api-access")).text(), "/portal/api-access/clients");
  const response = await agent.post("/portal/api-access/clients", { ...form, name, scopes });
  const page = await response.text();
  if (response.status !== 201) throw new Error(`creating a client failed (${response.status}): ${page}`);
  const value = (label: string) => new RegExp(`data-secret="${label}">([^<]+)<`).exec(page)?.[1];
  return { client_id: value("Client ID")!, client_secret: value("Client secret")!, page };
}

/** Expects `promise` to fail with an RFC 6749 error response; returns it for further checks. */
export async function oauthError(promise: Promise<unknown>): Promise<OAuth.ResponseBodyError> {
  const { oauth } = await loadOAuth();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof oauth.ResponseBodyError)) throw new Error(`expected an OAuth error response, got ${String(error)}`);
  return error;
}

/** GET on `{base_url}` with a bearer token; the status shows whether the token works. */
export async function apiStatus(baseUrl: string, token: string, path = "/groups"): Promise<number> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
}
