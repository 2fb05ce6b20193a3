import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { signedInAgent } from "./support/demo-user";
import { authorizationRequest, discover, registerPublicClient } from "./support/oauth-client";
import type { OAuth } from "./support/oauth4webapi";
import { hiddenFields, UserAgent } from "./support/user-agent";

/**
 * Issue 14, item 1 (RFC 9700 §4.11.2): registration is open, so an attacker can register a phishing
 * page as a redirect URI. An erroneous authorization request must not bounce a signed-out browser to it.
 */
describe("no open redirect through dynamically registered clients", () => {
  let sb: RunningSandbox;
  let as: OAuth.AuthorizationServer;
  let phisher: OAuth.Client;
  const PHISH = "https://evil.example/phish";

  beforeAll(async () => {
    sb = await startSandbox();
    as = await discover(sb.origin);
    phisher = await registerPublicClient(as, { redirect_uris: [PHISH], client_name: "Totally legit" });
  });
  afterAll(() => sb?.dispose());

  const spoiled = async (extra: Record<string, string>, drop: string[] = []): Promise<URL> => {
    const request = await authorizationRequest(as, phisher, { redirect_uri: PHISH, ...extra });
    for (const name of drop) request.url.searchParams.delete(name);
    return request.url;
  };

  const cases: [string, Record<string, string>, string[]][] = [
    ["an unknown scope", { scope: "read admin" }, []],
    ["a missing code_challenge", {}, ["code_challenge"]],
    ["the plain PKCE method", { code_challenge_method: "plain" }, []],
    ["the implicit grant", { response_type: "token" }, []],
    ["a repeated parameter", {}, []],
  ];

  test.each(cases)("%s: a signed-out browser gets an error page, not a redirect to the registered URI", async (name, extra, drop) => {
    const url = await spoiled(extra, drop);
    if (name === "a repeated parameter") url.searchParams.append("scope", "read");
    const response = await new UserAgent(sb.origin).get(url.href);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("not signed in");
  });

  test("the same request posted to the authorization endpoint without a session is not redirected either", async () => {
    const agent = new UserAgent(sb.origin);
    const csrf = hiddenFields(await (await agent.get("/portal/sign-in")).text(), "/portal/sign-in")._csrf!;
    const url = await spoiled({ scope: "read admin" });
    const response = await agent.post("/oauth/authorize", { ...Object.fromEntries(url.searchParams), _csrf: csrf, decision: "allow" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
  });

  test("a valid request from a signed-out browser goes to sign-in on this origin first", async () => {
    const response = await new UserAgent(sb.origin).get((await spoiled({})).href);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/portal\/sign-in\?next=/);
  });

  test("once the user is signed in, errors go back to the client with state and iss (RFC 6749 §4.1.2.1)", async () => {
    const agent = await signedInAgent(sb.origin);
    const response = await agent.get((await spoiled({ scope: "read admin" })).href);
    expect(response.status).toBe(302);
    const target = new URL(response.headers.get("location")!);
    expect(`${target.origin}${target.pathname}`).toBe(PHISH);
    expect(target.searchParams.get("error")).toBe("invalid_scope");
    expect(target.searchParams.get("iss")).toBe(sb.origin);
  });
});

describe("registration: redirect URIs by parsed host, and a rate limit per address", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  const register = (redirect_uris: string[]) =>
    fetch(`${sb.origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris }),
    });

  test.each([
    "http://localhost:1@evil.example/cb",
    "http://127.0.0.1@evil.example/cb",
    "http://localhost.evil.example/cb",
    "https://app.example@evil.example/cb",
    "https://user:pw@app.example/cb",
  ])("%s is invalid_redirect_uri", async (uri) => {
    const response = await register([uri]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
  });

  test("after 30 registrations a minute from one address the next is a 429 with Retry-After", async () => {
    const statuses: number[] = [];
    // 5 refused above, so 25 more are allowed.
    for (let i = 0; i < 26; i++) statuses.push((await register([`http://127.0.0.1:9${String(i).padStart(3, "0")}/cb`])).status);
    expect(statuses.slice(0, 25).every((s) => s === 201)).toBe(true);
    const last = await register(["http://127.0.0.1:9999/cb"]);
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await last.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("too many registrations"),
    });
  });
});
