import { ALL_SCOPES, Route, routes, Scope } from "@cloudcost/api";
import { startSandbox, RunningSandbox } from "@cloudcost/testkit";
import { send, WireRequest } from "./support/http";
import { apiToken, orgApi, revokeToken, UNLIMITED } from "./support/orgs";
import { expectUnchanged, orgState } from "./support/org-state";
import { expectProblem, expectStatus } from "./support/problem";
import { matchesRoute, OrgApi, requestBuilder } from "./support/route-requests";

/**
 * Every route of the contract × {no token, bad tokens, each single scope}. Documented outcome
 * (api/openapi.json): 401 with `WWW-Authenticate: Bearer` for a missing/invalid/revoked token, 403 when
 * the token lacks the route's scope, the route's success status otherwise; a refused request changes nothing.
 */
describe("auth matrix over every route", () => {
  let sb: RunningSandbox;
  let org: OrgApi;
  let scoped: Record<Scope, string>;
  let revoked: string;

  beforeAll(async () => {
    sb = await startSandbox({ args: UNLIMITED });
    org = await orgApi(sb, "demo", "authmatrix");
    const tokens = await Promise.all(ALL_SCOPES.map((s) => apiToken(sb, "demo", [s])));
    scoped = Object.fromEntries(ALL_SCOPES.map((s, i) => [s, tokens[i]!])) as Record<Scope, string>;
    revoked = await apiToken(sb, "demo", ALL_SCOPES);
    await revokeToken(sb, "demo", revoked);
  });
  afterAll(() => sb?.dispose());

  const unauthenticated: [string, () => string | undefined][] = [
    ["no Authorization header", () => undefined],
    ["an unknown token of the right shape", () => `Bearer ccpat_${"A".repeat(43)}`],
    ["another scheme (Basic)", () => `Basic ${Buffer.from(`x:${org.token}`).toString("base64")}`],
    ["the scheme without a token", () => "Bearer"],
    ["a revoked token", () => `Bearer ${revoked}`],
    ["a token with trailing garbage", () => `Bearer ${org.token}x`],
  ];

  const build = (route: Route): Promise<WireRequest> => requestBuilder(route)(org);

  test("every route of the contract has a request here that addresses it", async () => {
    for (const route of routes) expect(matchesRoute(route, await build(route))).toBe(true);
  });

  describe.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))("%s", (_label, route) => {
    test.each(unauthenticated)("401 for %s, and nothing changes", async (_what, authorization) => {
      const req = await build(route);
      const before = await orgState(sb.baseUrl, org.token);
      const header = authorization();
      const res = await send(sb.baseUrl, req, header === undefined ? undefined : { authorization: header });
      expectProblem(res, 401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      for (const secret of [org.token, revoked]) expect(res.text).not.toContain(secret);
      expectUnchanged(before, await orgState(sb.baseUrl, org.token));
    });

    test.each(ALL_SCOPES.filter((s) => s !== route.scope))("403 with only the %s scope, and nothing changes", async (scope) => {
      const req = await build(route);
      const before = await orgState(sb.baseUrl, org.token);
      expectProblem(await send(sb.baseUrl, req, { token: scoped[scope] }), 403);
      expectUnchanged(before, await orgState(sb.baseUrl, org.token));
    });

    test(`${route.status} with only the ${route.scope} scope`, async () => {
      const res = await send(sb.baseUrl, await build(route), { token: scoped[route.scope] });
      expectStatus(res, route.status);
      if (route.response) expect(route.response.safeParse(res.json).error).toBeUndefined();
    });
  });
});
