import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_USER, signIn } from "../oauth/support/demo-user";
import { hiddenFields, location, UserAgent } from "../oauth/support/user-agent";
import { rawRequest } from "../sandbox/raw-http";

/** Issue 14, items 2 and 4, and the session cookie's name and flags. */
describe("sign-in lockout under parallel attempts (item 2)", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("ten parallel wrong passwords: at most five are checked, the rest are 429, and then the right password is refused too", async () => {
    const agents = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const agent = new UserAgent(sb.origin);
        return { agent, fields: hiddenFields(await (await agent.get("/portal/sign-in")).text(), "/portal/sign-in") };
      }),
    );
    const statuses = await Promise.all(
      agents.map(({ agent, fields }, i) =>
        agent.post("/portal/sign-in", { ...fields, email: DEMO_USER.email, password: `guess-${i}` }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const right = await signIn(new UserAgent(sb.origin), DEMO_USER);
    expect(right.status).toBe(429);
  });
});

describe("sign-in: per-address limit across e-mail addresses (password spraying)", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("20 failures from one address with different e-mail addresses, then even a new address is 429", async () => {
    const agent = new UserAgent(sb.origin);
    for (let i = 0; i < 20; i++) expect((await signIn(agent, { email: `spray-${i}@example.com`, password: "x" })).status).toBe(401);
    expect((await signIn(agent, { email: "spray-new@example.com", password: "x" })).status).toBe(429);
  });
});

describe("next after sign-in (item 4)", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  const crafted = [
    "/portal/groups\r\nSet-Cookie: evil=1",
    "/portal/groups\nX-Injected: 1",
    "/portal/gröups",
    "/portal/groups?group=\u2603",
    "/portal/\u0000",
    "/portal/../api/v1/groups",
    "/portal/%2e%2e/api/v1/groups",
    "/oauth/authorize",
    "/\\evil.example",
    "//evil.example/portal/",
    "/\t/evil.example",
    "https://evil.example/portal/",
    "http:/portal/groups",
    "",
    "x".repeat(5000),
  ];

  test.each(crafted.map((n) => [JSON.stringify(n).slice(0, 60), n]))(
    "next=%s after sign-in goes to a same-origin portal page, never a 500",
    async (_shown, next) => {
      const response = await signIn(new UserAgent(sb.origin), DEMO_USER, next);
      expect(response.status).toBe(303);
      const target = location(response);
      expect(target).toMatch(/^\/portal\/[\x21-\x7e]*$/);
      expect(response.headers.get("set-cookie") ?? "").not.toMatch(/evil=/);
    },
  );

  test.each(crafted.map((n) => [JSON.stringify(n).slice(0, 60), n]))(
    "a signed-in GET of the sign-in page with next=%s redirects within the portal",
    async (_shown, next) => {
      const agent = new UserAgent(sb.origin);
      await signIn(agent, DEMO_USER);
      const response = await agent.get(`/portal/sign-in?${new URLSearchParams({ next })}`);
      expect(response.status).toBe(302);
      expect(location(response)).toMatch(/^\/portal\/[\x21-\x7e]*$/);
    },
  );

  test("the sign-in form posted with a crafted next field is answered, not a 500", async () => {
    const agent = new UserAgent(sb.origin);
    const fields = hiddenFields(await (await agent.get("/portal/sign-in")).text(), "/portal/sign-in");
    const response = await agent.post("/portal/sign-in", { ...fields, ...DEMO_USER, next: "/portal/x\r\nLocation: https://evil.example/" });
    expect(response.status).toBe(303);
    expect(location(response)).toBe("/portal/groups");
  });

  test("a legitimate next with a query is kept", async () => {
    const response = await signIn(new UserAgent(sb.origin), DEMO_USER, "/portal/alerts?group=grp_0000000000");
    expect(location(response)).toBe("/portal/alerts?group=grp_0000000000");
  });
});

describe("session cookies per instance", () => {
  let a: RunningSandbox;
  let b: RunningSandbox;
  beforeAll(async () => {
    [a, b] = await Promise.all([startSandbox(), startSandbox()]);
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
  });

  test("two sandboxes on one host use different cookie names, so signing in to one leaves the other's session alone", async () => {
    // One browser, one cookie jar for the host 127.0.0.1, whatever the port (RFC 6265 §8.5).
    const agentA = new UserAgent(a.origin);
    await signIn(agentA);
    const agentB = new UserAgent(b.origin);
    await signIn(agentB);
    const nameA = agentA.cookieNamed("cc_session_")!;
    const nameB = agentB.cookieNamed("cc_session_")!;
    expect(nameA).not.toBe(nameB);
    expect(agentA.cookieNamed("cc_csrf_")).not.toBe(agentB.cookieNamed("cc_csrf_"));
    const cookieA = agentA.setCookieStartingWith("cc_session_")!.split(";")[0]!;
    const cookieB = agentB.setCookieStartingWith("cc_session_")!.split(";")[0]!;
    for (const sb of [a, b]) {
      const page = await fetch(`${sb.origin}/portal/groups`, { headers: { cookie: `${cookieA}; ${cookieB}` }, redirect: "manual" });
      expect(page.status).toBe(200);
    }
  });
});

describe("cookies are Secure when the sandbox is served over https (--public-url)", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--public-url", "https://sandbox.test:8443"] });
  });
  afterAll(() => sb?.dispose());

  test("the CSRF and session cookies carry Secure; the public host is accepted and is the issuer", async () => {
    const page = await rawRequest(sb.origin, "GET", "/portal/sign-in", { host: "sandbox.test:8443" });
    expect(page.status).toBe(200);
    const csrfCookie = ([] as string[]).concat(page.headers["set-cookie"] ?? []).find((c) => c.startsWith("cc_csrf_"))!;
    expect(csrfCookie).toMatch(/; Secure/i);
    const fields = hiddenFields(page.text, "/portal/sign-in");
    const body = new URLSearchParams({ ...fields, ...DEMO_USER }).toString();
    const signedIn = await rawRequest(
      sb.origin,
      "POST",
      "/portal/sign-in",
      { host: "sandbox.test:8443", cookie: csrfCookie.split(";")[0]!, "content-type": "application/x-www-form-urlencoded" },
      body,
    );
    expect(signedIn.status).toBe(303);
    const session = ([] as string[]).concat(signedIn.headers["set-cookie"] ?? []).find((c) => c.startsWith("cc_session_"))!;
    expect(session).toMatch(/; Secure/i);
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    const metadata = await rawRequest(sb.origin, "GET", "/.well-known/oauth-authorization-server", { host: "sandbox.test:8443" });
    expect((metadata.json as { issuer: string }).issuer).toBe("https://sandbox.test:8443");
  });
});

describe("a bounded number of OAuth clients per organization", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("the 101st confidential client is refused on the portal (409) and by the CLI (exit 1); deleting one makes room", async () => {
    const agent = new UserAgent(sb.origin);
    await signIn(agent);
    const form = hiddenFields(await (await agent.get("/portal/api-access")).text(), "/portal/api-access/clients");
    for (let i = 0; i < 100; i++)
      expect((await agent.post("/portal/api-access/clients", { ...form, name: `c${i}`, scopes: ["read"] })).status).toBe(201);
    const refused = await agent.post("/portal/api-access/clients", { ...form, name: "one too many", scopes: ["read"] });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("already has 100 OAuth clients");
    const cli = await sb.cli(["client", "create", "--org", "demo", "--scopes", "read", "--json"]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/^error: .*100 OAuth clients/);
    const page = await (await agent.get("/portal/api-access")).text();
    const clientId = /name="client_id" value="([^"]+)"/.exec(page)![1]!;
    expect((await sb.cli(["client", "delete", "--org", "demo", clientId])).code).toBe(0);
    expect((await sb.cli(["client", "create", "--org", "demo", "--scopes", "read", "--json"])).code).toBe(0);
  });
});
