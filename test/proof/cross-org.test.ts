import { routes } from "@cloudcost/api";
import { startSandbox, RunningSandbox } from "@cloudcost/testkit";
import { send } from "./support/http";
import { createOrg, orgApi, UNLIMITED } from "./support/orgs";
import { expectUnchanged, orgState } from "./support/org-state";
import { expectProblem, expectStatus } from "./support/problem";
import { alertInput, fixtures, OrgApi, reportInput, requestBuilder } from "./support/route-requests";

/**
 * Two organizations in one sandbox. Organization B's token, with every scope, aims at each of A's
 * objects: the documented answer is 404 ("no such object in the caller's organization"), never data
 * of A, and A is unchanged afterwards.
 */
describe("cross-organization access", () => {
  let sb: RunningSandbox;
  let a: OrgApi;
  let b: OrgApi;

  beforeAll(async () => {
    sb = await startSandbox({ args: UNLIMITED });
    await createOrg(sb, "rival");
    [a, b] = await Promise.all([orgApi(sb, "demo", "orgA-private"), orgApi(sb, "rival", "orgB")]);
  });
  afterAll(() => sb?.dispose());

  const singleObjectRoutes = routes.filter((r) => r.params !== undefined);

  test.each(singleObjectRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "%s on another organization's object is 404",
    async (_l, route) => {
      const req = await requestBuilder(route)(a);
      const before = await orgState(sb.baseUrl, a.token);
      const res = await send(sb.baseUrl, req, { token: b.token });
      expectProblem(res, 404);
      expect(res.text).not.toContain(a.marker);
      expectUnchanged(before, await orgState(sb.baseUrl, a.token));
    },
  );

  test("no list, filter or cost read of B shows anything of A", async () => {
    await Promise.all([fixtures.groupWithMember(a), fixtures.alert(a), fixtures.report(a), fixtures.scan(a)]);
    const aState = await orgState(sb.baseUrl, a.token);
    const aIds = [...aState.groups, ...aState.alerts, ...aState.reports].map((o) => o.id).concat(aState.scanIds);
    expect(aIds.length).toBeGreaterThan(3);
    for (const route of routes.filter((r) => r.method === "GET" && r.params === undefined)) {
      const res = await send(sb.baseUrl, await requestBuilder(route)(b), { token: b.token });
      expectStatus(res, 200);
      expect(res.text).not.toContain(a.marker);
      for (const id of aIds) expect(res.text).not.toContain(id);
    }
  });

  test("a cost read filtered by A's group is 404 for B", async () => {
    const group = await fixtures.group(a);
    for (const path of ["/cost/summary", "/cost/services", "/cost/daily", "/cost/forecast", "/cost/comparison"]) {
      const res = await send(
        sb.baseUrl,
        { method: "GET", path: `${path}?from=2026-10-01&to=2026-10-31&groupId=${group.id}` },
        { token: b.token },
      );
      expectProblem(res, 404);
    }
  });

  test("B cannot attach an alert or a report to A's group: 422 naming groupId, nothing created", async () => {
    const group = await fixtures.group(a);
    const beforeA = await orgState(sb.baseUrl, a.token);
    const beforeB = await orgState(sb.baseUrl, b.token);
    for (const [path, body] of [
      ["/alerts", alertInput(b, { groupId: group.id })],
      ["/reports", reportInput(b, { groupId: group.id })],
    ] as const) {
      const problem = expectProblem(await send(sb.baseUrl, { method: "POST", path, body }, { token: b.token }), 422);
      expect(problem.errors?.map((e) => e.path)).toContain("body.groupId");
      expect(JSON.stringify(problem)).not.toContain(a.marker);
    }
    expectUnchanged(beforeA, await orgState(sb.baseUrl, a.token));
    expectUnchanged(beforeB, await orgState(sb.baseUrl, b.token));
  });
});
