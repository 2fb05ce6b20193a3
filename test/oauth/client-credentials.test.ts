import { loadOAuth, type Insecure, type OAuth } from "./support/oauth4webapi";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { signedInAgent } from "./support/demo-user";
import { apiStatus, discover, oauthError, portalClient } from "./support/oauth-client";
import type { UserAgent } from "./support/user-agent";

/** Client credentials (spec: Authentication → Client credentials) driven by oauth4webapi against a real sandbox. */
describe("client credentials grant", () => {
  let sb: RunningSandbox;
  let oauth: typeof OAuth;
  let insecure: Insecure;
  let as: OAuth.AuthorizationServer;
  let agent: UserAgent;
  let ci: { client_id: string; client_secret: string };

  beforeAll(async () => {
    ({ oauth, insecure } = await loadOAuth());
    sb = await startSandbox({ args: ["--token-ttl", "900"] });
    as = await discover(sb.origin);
    agent = await signedInAgent(sb.origin);
    ci = await portalClient(agent, "ci pipeline", ["read", "write"]);
  });
  afterAll(() => sb?.dispose());

  const clientOf = (c: { client_id: string }): OAuth.Client => ({ client_id: c.client_id });
  const tokenFor = async (auth: OAuth.ClientAuth, scope?: string) =>
    oauth.processClientCredentialsResponse(
      as,
      clientOf(ci),
      await oauth.clientCredentialsGrantRequest(as, clientOf(ci), auth, scope === undefined ? {} : { scope }, insecure),
    );
  const rawToken = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(body),
    });

  test("HTTP Basic client authentication yields a bearer token with the client's scopes and the configured lifetime", async () => {
    const token = await tokenFor(oauth.ClientSecretBasic(ci.client_secret));
    expect(token).toMatchObject({ token_type: "bearer", expires_in: 900, scope: "read write" });
    expect(await apiStatus(sb.baseUrl, token.access_token)).toBe(200);
  });

  test("form-field client authentication (the spec's example) works too, and the response is not cacheable", async () => {
    const response = await rawToken({ grant_type: "client_credentials", client_id: ci.client_id, client_secret: ci.client_secret });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^ccat_/), token_type: "Bearer", expires_in: 900, scope: "read write" });
  });

  test("a narrower scope is granted as asked, and only that", async () => {
    const token = await tokenFor(oauth.ClientSecretPost(ci.client_secret), "read");
    expect(token.scope).toBe("read");
    const created = await fetch(`${sb.baseUrl}/groups`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.access_token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "cc-narrow" }),
    });
    expect(created.status).toBe(403);
  });

  test.each([
    ["a scope the client was not given", "read run"],
    ["an unknown scope", "admin"],
    ["a malformed scope list", "read  write"],
  ])("%s is invalid_scope, never a silent downgrade", async (_what, scope) => {
    const error = await oauthError(tokenFor(oauth.ClientSecretBasic(ci.client_secret), scope));
    expect(error).toMatchObject({ status: 400, error: "invalid_scope" });
  });

  test("the organization's permissions cap what a client may ask for", async () => {
    await sb.cliJson(["org", "create", "readonly-org", "--permissions", "read", "--json"]);
    const limited = await sb.cliJson<{ client_id: string; client_secret: string }>([
      "client",
      "create",
      "--org",
      "readonly-org",
      "--scopes",
      "read,write",
      "--json",
    ]);
    const asked = await rawToken({
      grant_type: "client_credentials",
      client_id: limited.client_id,
      client_secret: limited.client_secret,
      scope: "write",
    });
    expect(asked.status).toBe(400);
    expect(await asked.json()).toMatchObject({ error: "invalid_scope" });
    const unasked = await rawToken({
      grant_type: "client_credentials",
      client_id: limited.client_id,
      client_secret: limited.client_secret,
    });
    expect(await unasked.json()).toMatchObject({ scope: "read" });
  });

  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });
  type Attempt = () => { body: Record<string, string>; headers?: Record<string, string> };

  test.each<[string, Attempt]>([
    ["a wrong secret in HTTP Basic", () => ({ body: { grant_type: "client_credentials" }, headers: basic(ci.client_id, "wrong") })],
    ["a wrong secret in the form", () => ({ body: { grant_type: "client_credentials", client_id: ci.client_id, client_secret: "wrong" } })],
    [
      "an unknown client",
      () => ({ body: { grant_type: "client_credentials", client_id: "ccc_0000000000000000000000", client_secret: ci.client_secret } }),
    ],
    ["no client authentication", () => ({ body: { grant_type: "client_credentials" } })],
    ["a malformed Basic header", () => ({ body: { grant_type: "client_credentials" }, headers: { authorization: "Basic !!!" } })],
  ])("%s is invalid_client with 401, WWW-Authenticate and no-store", async (_what, attempt) => {
    const { body, headers } = attempt();
    const response = await rawToken(body, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  test.each<[string, string, () => [string, string][]]>([
    [
      "an unsupported grant type",
      "unsupported_grant_type",
      () => [
        ["grant_type", "password"],
        ["username", "u"],
        ["password", "p"],
      ],
    ],
    ["a missing grant type", "invalid_request", () => []],
    [
      "a repeated parameter",
      "invalid_request",
      () => [
        ["grant_type", "client_credentials"],
        ["scope", "read"],
        ["scope", "write"],
      ],
    ],
    [
      "Basic and a form secret at once",
      "invalid_request",
      () => [
        ["grant_type", "client_credentials"],
        ["client_secret", ci.client_secret],
      ],
    ],
  ])("%s is %s", async (_what, error, fields) => {
    const response = await fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...basic(ci.client_id, ci.client_secret) },
      body: new URLSearchParams(fields()),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ error });
  });

  test("a JSON body is invalid_request (the endpoint is form-encoded), and the REST API still refuses form bodies", async () => {
    const json = await fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials" }),
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
    const form = await fetch(`${sb.baseUrl}/groups`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${await sb.token()}` },
      body: "name=x",
    });
    expect(form.status).toBe(415);
  });

  test("RFC 7009 revocation stops the token at once and still answers 200 for an unknown token", async () => {
    const token = await tokenFor(oauth.ClientSecretBasic(ci.client_secret));
    expect(await apiStatus(sb.baseUrl, token.access_token)).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, clientOf(ci), oauth.ClientSecretBasic(ci.client_secret), token.access_token, insecure),
    );
    expect(await apiStatus(sb.baseUrl, token.access_token)).toBe(401);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, clientOf(ci), oauth.ClientSecretBasic(ci.client_secret), "ccat_unknown", insecure),
    );
  });

  test("introspection reports a live token and, after revocation, only active: false", async () => {
    const token = await tokenFor(oauth.ClientSecretBasic(ci.client_secret), "read");
    const introspect = async () =>
      oauth.processIntrospectionResponse(
        as,
        clientOf(ci),
        await oauth.introspectionRequest(as, clientOf(ci), oauth.ClientSecretBasic(ci.client_secret), token.access_token, insecure),
      );
    expect(await introspect()).toMatchObject({
      active: true,
      scope: "read",
      client_id: ci.client_id,
      token_type: "Bearer",
      iss: sb.origin,
    });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, clientOf(ci), oauth.ClientSecretPost(ci.client_secret), token.access_token, insecure),
    );
    expect(await introspect()).toEqual({ active: false });
  });

  test("deleting the client in the portal invalidates every token it issued and its secret", async () => {
    const doomed = await portalClient(agent, "doomed", ["read"]);
    const token = await oauth.processClientCredentialsResponse(
      as,
      clientOf(doomed),
      await oauth.clientCredentialsGrantRequest(as, clientOf(doomed), oauth.ClientSecretBasic(doomed.client_secret), {}, insecure),
    );
    expect(await apiStatus(sb.baseUrl, token.access_token)).toBe(200);
    const page = await (await agent.get("/portal/api-access")).text();
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page)![1]!;
    expect((await agent.post("/portal/api-access/clients/delete", { _csrf: csrf, client_id: doomed.client_id })).status).toBe(303);
    expect(await apiStatus(sb.baseUrl, token.access_token)).toBe(401);
    const again = await rawToken({ grant_type: "client_credentials", client_id: doomed.client_id, client_secret: doomed.client_secret });
    expect(again.status).toBe(401);
  });
});
