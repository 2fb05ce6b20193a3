import { loadOAuth, type Insecure, type OAuth } from "./support/oauth4webapi";
import { setTimeout as sleep } from "node:timers/promises";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { authorizeAsUser, signedInAgent } from "./support/demo-user";
import {
  apiStatus,
  authorizationRequest,
  authorize,
  discover,
  exchange,
  oauthError,
  registerPublicClient,
  REDIRECT_URI,
} from "./support/oauth-client";
import { hiddenFields, type UserAgent } from "./support/user-agent";

/** Every rule of the code flow, broken once: the server must refuse with the RFC's error and issue nothing. */
describe("authorization code flow: refusals", () => {
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
    client = await registerPublicClient(as, { redirect_uris: [REDIRECT_URI, "http://127.0.0.1:8976/other"] });
    agent = await signedInAgent(sb.origin);
  });
  afterAll(() => sb?.dispose());

  const tokenError = async (response: Promise<Response>) => oauthError(oauth.processAuthorizationCodeResponse(as, client, await response));

  describe("token endpoint", () => {
    test("a wrong code_verifier is invalid_grant, and the code is spent", async () => {
      const { params, request } = await authorize(as, client, agent);
      expect(await tokenError(exchange(as, client, params, oauth.generateRandomCodeVerifier()))).toMatchObject({
        status: 400,
        error: "invalid_grant",
      });
      expect((await tokenError(exchange(as, client, params, request.verifier))).error).toBe("invalid_grant");
    });

    test("a reused code is invalid_grant and revokes the tokens issued for it (RFC 6749 §4.1.2)", async () => {
      const { params, request } = await authorize(as, client, agent);
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange(as, client, params, request.verifier));
      expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(200);
      expect((await tokenError(exchange(as, client, params, request.verifier))).error).toBe("invalid_grant");
      expect(await apiStatus(sb.baseUrl, tokens.access_token)).toBe(401);
      const refreshed = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
      expect((await oauthError(oauth.processRefreshTokenResponse(as, client, refreshed))).error).toBe("invalid_grant");
    });

    test("a redirect_uri other than the authorization request's is invalid_grant, even if registered", async () => {
      const { params, request } = await authorize(as, client, agent);
      expect((await tokenError(exchange(as, client, params, request.verifier, "http://127.0.0.1:8976/other"))).error).toBe("invalid_grant");
    });

    test("a code redeemed by another client is invalid_grant", async () => {
      const { params, request } = await authorize(as, client, agent);
      const thief = await registerPublicClient(as, { client_name: "thief" });
      const response = await oauth.authorizationCodeGrantRequest(as, thief, oauth.None(), params, REDIRECT_URI, request.verifier, insecure);
      expect((await oauthError(oauth.processAuthorizationCodeResponse(as, thief, response))).error).toBe("invalid_grant");
    });

    test("an invented code is invalid_grant", async () => {
      const body = new URLSearchParams({
        grant_type: "authorization_code",
        code: "ccac_invented",
        redirect_uri: REDIRECT_URI,
        code_verifier: oauth.generateRandomCodeVerifier(),
        client_id: client.client_id,
      });
      const response = await fetch(as.token_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_grant" });
    });

    test("a malformed code_verifier is invalid_request", async () => {
      const { params } = await authorize(as, client, agent);
      expect((await tokenError(exchange(as, client, params, "too-short"))).error).toBe("invalid_request");
    });

    test("a public client presenting a secret is invalid_client", async () => {
      const { params, request } = await authorize(as, client, agent);
      const body = new URLSearchParams({
        grant_type: "authorization_code",
        code: params.get("code")!,
        redirect_uri: REDIRECT_URI,
        code_verifier: request.verifier,
        client_id: client.client_id,
        client_secret: "guess",
      });
      const response = await fetch(as.token_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: "invalid_client" });
    });
  });

  describe("authorization endpoint", () => {
    /** Runs the user's part and checks the error came back to the client's redirect URI with state and iss but no code. */
    const callbackError = async (request: Awaited<ReturnType<typeof authorizationRequest>>, decision: "allow" | "deny" = "allow") => {
      const callback = await authorizeAsUser(agent, request.url, decision);
      expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
      expect(callback.searchParams.get("state")).toBe(request.state);
      expect(callback.searchParams.get("iss")).toBe(sb.origin);
      expect(callback.searchParams.get("code")).toBeNull();
      expect(() => oauth.validateAuthResponse(as, client, callback, request.state)).toThrow(oauth.AuthorizationResponseError);
      return callback.searchParams.get("error");
    };

    test.each([
      ["the plain PKCE method", { code_challenge_method: "plain" }, "invalid_request"],
      ["a missing PKCE method (plain by default, RFC 7636 §4.3)", { code_challenge_method: "" }, "invalid_request"],
      ["a missing code_challenge", { code_challenge: "" }, "invalid_request"],
      ["a malformed code_challenge", { code_challenge: "short" }, "invalid_request"],
      ["an unknown scope", { scope: "read admin" }, "invalid_scope"],
      ["the implicit grant", { response_type: "token" }, "unsupported_response_type"],
    ])("%s is redirected back as %s with state and iss", async (_what, extra, error) => {
      const request = await authorizationRequest(as, client, extra);
      for (const [k, v] of Object.entries(extra)) if (v === "") request.url.searchParams.delete(k);
      expect(await callbackError(request)).toBe(error);
    });

    test("a scope the client did not register is invalid_scope", async () => {
      const readOnly = await registerPublicClient(as, { scope: "read" });
      const request = await authorizationRequest(as, readOnly, { scope: "read write" });
      const callback = await authorizeAsUser(agent, request.url);
      expect(callback.searchParams.get("error")).toBe("invalid_scope");
    });

    test("the user denying consent is access_denied", async () => {
      expect(await callbackError(await authorizationRequest(as, client), "deny")).toBe("access_denied");
    });

    test.each([
      ["an unregistered redirect_uri", (u: URL) => u.searchParams.set("redirect_uri", "http://127.0.0.1:8976/evil")],
      ["a redirect_uri differing only in a trailing slash", (u: URL) => u.searchParams.set("redirect_uri", `${REDIRECT_URI}/`)],
      ["a missing redirect_uri", (u: URL) => u.searchParams.delete("redirect_uri")],
      ["an unknown client_id", (u: URL) => u.searchParams.set("client_id", "ccp_unknown0000000000")],
    ])("%s gets an error page, never a redirect", async (_what, spoil) => {
      const request = await authorizationRequest(as, client);
      spoil(request.url);
      const response = await agent.get(request.url.href);
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    });

    test("a consent form without its CSRF token is refused and issues no code", async () => {
      const request = await authorizationRequest(as, client);
      const page = await (await agent.get(request.url.href)).text();
      const { _csrf: _dropped, ...fields } = hiddenFields(page, "/oauth/authorize");
      const response = await agent.post("/oauth/authorize", { ...fields, decision: "allow" });
      expect(response.status).toBe(403);
      expect(response.headers.get("location")).toBeNull();
    });
  });

  describe("dynamic registration (RFC 7591 §3.2.2)", () => {
    const register = (body: unknown, type = "application/json") =>
      fetch(as.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": type },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });

    test.each([
      ["http on a public host", { redirect_uris: ["http://example.com/cb"] }, "invalid_redirect_uri"],
      ["a fragment", { redirect_uris: ["https://app.example.com/cb#frag"] }, "invalid_redirect_uri"],
      ["a relative URI", { redirect_uris: ["/cb"] }, "invalid_redirect_uri"],
      ["a javascript: URI", { redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      ["no redirect URIs", { redirect_uris: [] }, "invalid_redirect_uri"],
      ["an unknown scope", { redirect_uris: [REDIRECT_URI], scope: "read admin" }, "invalid_client_metadata"],
      [
        "a confidential auth method",
        { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "client_secret_basic" },
        "invalid_client_metadata",
      ],
      ["the implicit grant", { redirect_uris: [REDIRECT_URI], grant_types: ["implicit"] }, "invalid_client_metadata"],
      ["a JSON array", [REDIRECT_URI], "invalid_client_metadata"],
    ])("%s is %s", async (_what, body, error) => {
      const response = await register(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error, error_description: expect.any(String) });
    });

    test("a form-encoded body is invalid_client_metadata", async () => {
      const response = await register(`redirect_uris=${encodeURIComponent(REDIRECT_URI)}`, "application/x-www-form-urlencoded");
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_client_metadata" });
    });

    test("loopback http, https and private-use schemes register", async () => {
      const response = await register({ redirect_uris: ["http://[::1]:9000/cb", "https://app.example.com/cb", "com.example.agent:/cb"] });
      expect(response.status).toBe(201);
    });
  });
});

describe("authorization codes expire", () => {
  let sb: RunningSandbox;
  afterAll(() => sb?.dispose());

  test("a code redeemed after its lifetime (serve --code-ttl 1) is invalid_grant", async () => {
    const { oauth } = await loadOAuth();
    sb = await startSandbox({ args: ["--code-ttl", "1"] });
    const as = await discover(sb.origin);
    const client = await registerPublicClient(as);
    const { params, request } = await authorize(as, client, await signedInAgent(sb.origin));
    await sleep(1500);
    const error = await oauthError(
      oauth.processAuthorizationCodeResponse(as, client, await exchange(as, client, params, request.verifier)),
    );
    expect(error).toMatchObject({ status: 400, error: "invalid_grant", error_description: expect.stringContaining("expired") });
  });
});
