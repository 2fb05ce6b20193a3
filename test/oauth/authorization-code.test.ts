import { loadOAuth, type Insecure, type OAuth } from "./support/oauth4webapi";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { signedInAgent } from "./support/demo-user";
import { apiStatus, discover, oauthError, portalClient, registerPublicClient, REDIRECT_URI, userTokens } from "./support/oauth-client";
import { UserAgent } from "./support/user-agent";

/**
 * The authorization-code flow with PKCE end to end with an independent client library (oauth4webapi):
 * discovery, dynamic registration, authorization as the seeded user, token, refresh, revocation and
 * introspection.
 */
describe("authorization code with PKCE", () => {
  let sb: RunningSandbox;
  let oauth: typeof OAuth;
  let insecure: Insecure;
  let as: OAuth.AuthorizationServer;
  let client: OAuth.Client;
  let agent: UserAgent;

  beforeAll(async () => {
    ({ oauth, insecure } = await loadOAuth());
    sb = await startSandbox();
    as = await discover(sb.origin);
    client = await registerPublicClient(as);
    agent = await signedInAgent(sb.origin);
  });
  afterAll(() => sb?.dispose());

  const refresh = async (refreshToken: string) => oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure);

  test("discovery publishes every endpoint on the sandbox origin, S256 only, and RFC 9207 iss", () => {
    expect(as).toMatchObject({
      issuer: sb.origin,
      authorization_endpoint: `${sb.origin}/oauth/authorize`,
      token_endpoint: `${sb.origin}/oauth/token`,
      registration_endpoint: `${sb.origin}/oauth/register`,
      revocation_endpoint: `${sb.origin}/oauth/revoke`,
      introspection_endpoint: `${sb.origin}/oauth/introspect`,
      scopes_supported: ["read", "write", "run"],
      response_types_supported: ["code"],
      grant_types_supported: expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials"]),
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: expect.arrayContaining(["client_secret_basic", "client_secret_post", "none"]),
      authorization_response_iss_parameter_supported: true,
    });
  });

  test("registration returns a public client with the registered metadata", () => {
    expect(client).toMatchObject({
      client_id: expect.stringMatching(/^ccp_/),
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
      scope: "read write run",
      client_name: "test agent",
    });
    expect(client.client_secret).toBeUndefined();
  });

  test("a signed-in user's consent yields a code (state and iss round-trip) that buys user tokens for the API", async () => {
    const tokens = await userTokens(as, client, agent);
    expect(tokens).toMatchObject({
      token_type: "bearer",
      scope: "read write",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^ccrt_/),
    });
    expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(200);
    const scan = await fetch(`${sb.baseUrl}/scans`, { method: "POST", headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(scan.status).toBe(403);
  });

  test("without a session the user is sent to sign in first and then comes back to consent", async () => {
    const fresh = new UserAgent(sb.origin);
    const tokens = await userTokens(as, client, fresh, { scope: "read" });
    expect(tokens.scope).toBe("read");
  });

  test("refresh tokens rotate: the new pair works, the old refresh token is refused and its reuse revokes the whole grant", async () => {
    const first = await userTokens(as, client, agent);
    const second = await oauth.processRefreshTokenResponse(as, client, await refresh(first.refresh_token!));
    expect(second.refresh_token).toBeDefined();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe("read write");
    expect(await apiStatus(sb.baseUrl, second.access_token)).toBe(200);

    const reuse = await oauthError(oauth.processRefreshTokenResponse(as, client, await refresh(first.refresh_token!)));
    expect(reuse).toMatchObject({ status: 400, error: "invalid_grant" });
    expect(await apiStatus(sb.baseUrl, second.access_token)).toBe(401);
    expect(await apiStatus(sb.baseUrl, first.access_token)).toBe(401);
    const afterTheft = await oauthError(oauth.processRefreshTokenResponse(as, client, await refresh(second.refresh_token!)));
    expect(afterTheft.error).toBe("invalid_grant");
  });

  test("a refresh may narrow the scope but never widen it; the rotated refresh token keeps the original grant", async () => {
    const withScope = async (token: string, scope: string) =>
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), token, { ...insecure, additionalParameters: { scope } });
    const narrowOnly = await userTokens(as, client, agent, { scope: "read" });
    expect(
      (await oauthError(oauth.processRefreshTokenResponse(as, client, await withScope(narrowOnly.refresh_token!, "read write")))).error,
    ).toBe("invalid_scope");

    const full = await userTokens(as, client, agent);
    const narrowed = await oauth.processRefreshTokenResponse(as, client, await withScope(full.refresh_token!, "read"));
    expect(narrowed.scope).toBe("read");
    const write = await fetch(`${sb.baseUrl}/groups`, {
      method: "POST",
      headers: { authorization: `Bearer ${narrowed.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "narrowed" }),
    });
    expect(write.status).toBe(403);
    const restored = await oauth.processRefreshTokenResponse(as, client, await refresh(narrowed.refresh_token!));
    expect(restored.scope).toBe("read write");
  });

  test("revoking the refresh token (RFC 7009) revokes the access tokens of its grant at once", async () => {
    const tokens = await userTokens(as, client, agent);
    expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, {
        ...insecure,
        additionalParameters: { token_type_hint: "refresh_token" },
      }),
    );
    expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(401);
    const refused = await oauthError(oauth.processRefreshTokenResponse(as, client, await refresh(tokens.refresh_token!)));
    expect(refused.error).toBe("invalid_grant");
  });

  test("revoking an access token stops it at once; another client's token is left alone", async () => {
    const tokens = await userTokens(as, client, agent);
    const other = await registerPublicClient(as, { client_name: "other agent" });
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, other, oauth.None(), tokens.access_token, insecure));
    expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure));
    expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(401);
  });

  test("a confidential client of the organization introspects a user token; public clients may not introspect", async () => {
    const tokens = await userTokens(as, client, agent, { scope: "read" });
    const rs = await portalClient(agent, "resource server", ["read"]);
    const rsClient: OAuth.Client = { client_id: rs.client_id };
    const info = await oauth.processIntrospectionResponse(
      as,
      rsClient,
      await oauth.introspectionRequest(as, rsClient, oauth.ClientSecretBasic(rs.client_secret), tokens.access_token, insecure),
    );
    expect(info).toMatchObject({
      active: true,
      scope: "read",
      client_id: client.client_id,
      username: "demo@cloudcost.dev",
      token_type: "Bearer",
      iss: sb.origin,
    });
    expect(info.exp! - info.iat!).toBe(3600);
    const byPublic = await fetch(as.introspection_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, client_id: client.client_id }),
    });
    expect(byPublic.status).toBe(401);
    expect(await byPublic.json()).toMatchObject({ error: "invalid_client" });
  });

  test("an API token can be revoked at the revocation endpoint by presenting it (no client needed)", async () => {
    const token = await sb.token("read");
    const response = await fetch(as.revocation_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    expect(response.status).toBe(200);
    expect(await apiStatus(sb.baseUrl, token)).toBe(401);
  });
});
