import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_USER, signIn } from "../oauth/support/demo-user";
import { hiddenFields, location, UserAgent } from "../oauth/support/user-agent";

/** Portal sign-in: the seeded user, session cookie flags, CSRF, safe redirects, sign-out and the failed-attempt limit. */
describe("portal sign-in", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("pages need a session: they send the visitor to sign in and back", async () => {
    const response = await new UserAgent(sb.origin).get("/portal/api-access");
    expect(response.status).toBe(302);
    expect(location(response)).toBe(`/portal/sign-in?next=${encodeURIComponent("/portal/api-access")}`);
  });

  test("the seeded user signs in; the session cookie is HttpOnly and SameSite=Lax, and so is the CSRF cookie; neither is Secure over http", async () => {
    const agent = new UserAgent(sb.origin);
    const response = await signIn(agent, DEMO_USER, "/portal/alerts");
    expect(response.status).toBe(303);
    expect(location(response)).toBe("/portal/alerts");
    expect(agent.setCookieStartingWith("cc_session_")).toMatch(/HttpOnly/i);
    expect(agent.setCookieStartingWith("cc_session_")).toMatch(/SameSite=Lax/i);
    expect(agent.setCookieStartingWith("cc_csrf_")).toMatch(/HttpOnly/i);
    expect(agent.setCookieStartingWith("cc_session_")).not.toMatch(/Secure/i);
    expect((await agent.get("/portal/alerts")).status).toBe(200);
  });

  test("the e-mail address is case-insensitive", async () => {
    expect((await signIn(new UserAgent(sb.origin), { ...DEMO_USER, email: "Demo@CloudCost.dev" })).status).toBe(303);
  });

  test("a wrong password shows the form again with an error and starts no session", async () => {
    const agent = new UserAgent(sb.origin);
    const response = await signIn(agent, { email: DEMO_USER.email, password: "not-the-password" });
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("E-mail address or password is wrong.");
    expect(agent.hasCookieStartingWith("cc_session_")).toBe(false);
  });

  test("a sign-in posted without a body (CSRF token in a header) is a failed sign-in, not a server error", async () => {
    const agent = new UserAgent(sb.origin);
    const csrf = hiddenFields(await (await agent.get("/portal/sign-in")).text(), "/portal/sign-in")._csrf!;
    const response = await agent.postWithoutBody("/portal/sign-in", { "csrf-token": csrf });
    expect(response.status).toBe(401);
    expect(agent.hasCookieStartingWith("cc_session_")).toBe(false);
  });

  test("a sign-in form without its CSRF token is refused", async () => {
    const agent = new UserAgent(sb.origin);
    await agent.get("/portal/sign-in");
    const response = await agent.post("/portal/sign-in", { ...DEMO_USER });
    expect(response.status).toBe(403);
    expect(agent.hasCookieStartingWith("cc_session_")).toBe(false);
  });

  test.each(["https://evil.example/", "//evil.example/portal/", "/\\evil.example", "/api/v1/groups"])(
    "next=%s is not followed after sign-in",
    async (next) => {
      const response = await signIn(new UserAgent(sb.origin), DEMO_USER, next);
      expect(location(response)).toBe("/portal/groups");
    },
  );

  test("signing out ends the session on the server, not only in the browser", async () => {
    const agent = new UserAgent(sb.origin);
    await signIn(agent);
    const session = agent.setCookieStartingWith("cc_session_")!.split(";")[0]!;
    const page = await (await agent.get("/portal/groups")).text();
    expect((await agent.post("/portal/sign-out", hiddenFields(page, "/portal/sign-out"))).status).toBe(303);
    const replay = await fetch(`${sb.origin}/portal/groups`, { headers: { cookie: session }, redirect: "manual" });
    expect(replay.status).toBe(302);
  });
});

describe("portal sign-in rate limit", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("after 5 failed attempts for an address even the right password is refused with 429; other addresses are unaffected", async () => {
    const agent = new UserAgent(sb.origin);
    for (let i = 0; i < 5; i++) expect((await signIn(agent, { email: DEMO_USER.email, password: `guess-${i}` })).status).toBe(401);
    const blocked = await signIn(agent, DEMO_USER);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(agent.hasCookieStartingWith("cc_session_")).toBe(false);
    expect((await signIn(agent, { email: "someone-else@example.com", password: "x" })).status).toBe(401);
  });
});
