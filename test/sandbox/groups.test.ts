import { CloudGroup, CostSummary, GlobalFilter, MemberList, Problem } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, DEMO_AZURE, alertBody, call, fields, reportBody } from "./api-client";
import { daysFromToday } from "./dates";

describe("Cloud Groups", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const createGroup = async (name: string): Promise<CloudGroup> => {
    const r = await call(sandbox, "POST", "/groups", { token, json: { name } });
    expect(r.status).toBe(201);
    return CloudGroup.parse(r.body);
  };
  const getGroup = async (id: string) => CloudGroup.parse((await call(sandbox, "GET", `/groups/${id}`, { token })).body);

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  it("creates a group from the API with source api, no members, a Location and an ETag", async () => {
    const r = await call(sandbox, "POST", "/groups", { token, json: { name: "  Platform  ", description: "shared services" } });
    expect(r.status).toBe(201);
    const group = CloudGroup.parse(r.body);
    expect(group).toMatchObject({ name: "Platform", description: "shared services", members: [], source: "api" });
    expect(r.headers.get("location")).toBe(`/api/v1/groups/${group.id}`);
    expect(await getGroup(group.id)).toEqual(group);
  });

  it("refuses a second group whose name differs only in case (409 naming the field)", async () => {
    await createGroup("Finance");
    const r = await call(sandbox, "POST", "/groups", { token, json: { name: "FINANCE" } });
    expect(r.status).toBe(409);
    expect(Problem.parse(r.body).errors).toEqual([expect.objectContaining({ path: "body.name", code: "duplicate_name" })]);
  });

  it("renames with PATCH, keeps the name unique, and allows changing only the case of its own name", async () => {
    const g = await createGroup("Marketing");
    await createGroup("Sales");
    expect((await call(sandbox, "PATCH", `/groups/${g.id}`, { token, json: { name: "sales" } })).status).toBe(409);
    const recased = await call(sandbox, "PATCH", `/groups/${g.id}`, { token, json: { name: "MARKETING" } });
    expect(recased.status).toBe(200);
    expect(CloudGroup.parse(recased.body).name).toBe("MARKETING");
    const empty = await call(sandbox, "PATCH", `/groups/${g.id}`, { token, json: {} });
    expect(empty.status).toBe(400);
  });

  it("adds, lists and removes members; adding twice changes nothing", async () => {
    const g = await createGroup("Members");
    const added = CloudGroup.parse(
      (
        await call(sandbox, "POST", `/groups/${g.id}/members`, {
          token,
          json: { provider: "azure", accountId: DEMO_AZURE[0].toUpperCase() },
        })
      ).body,
    );
    expect(added.members).toEqual([{ provider: "azure", accountId: DEMO_AZURE[0] }]);
    const again = await call(sandbox, "POST", `/groups/${g.id}/members`, { token, json: { provider: "azure", accountId: DEMO_AZURE[0] } });
    expect(CloudGroup.parse(again.body)).toEqual(added);
    await call(sandbox, "POST", `/groups/${g.id}/members`, { token, json: { provider: "aws", accountId: DEMO_AWS[1] } });
    const listed = MemberList.parse((await call(sandbox, "GET", `/groups/${g.id}/members`, { token })).body);
    expect(listed.items).toEqual([
      { provider: "aws", accountId: DEMO_AWS[1] },
      { provider: "azure", accountId: DEMO_AZURE[0] },
    ]);
    const removed = await call(sandbox, "DELETE", `/groups/${g.id}/members/azure/${DEMO_AZURE[0].toUpperCase()}`, { token });
    expect(removed.status).toBe(200);
    expect(CloudGroup.parse(removed.body).members).toEqual([{ provider: "aws", accountId: DEMO_AWS[1] }]);
    expect((await call(sandbox, "DELETE", `/groups/${g.id}/members/azure/${DEMO_AZURE[0]}`, { token })).status).toBe(404);
  });

  it("replaces the whole member set, collapsing duplicates", async () => {
    const g = await createGroup("Replace");
    const members = [
      { provider: "azure", accountId: DEMO_AZURE[1] },
      { provider: "aws", accountId: DEMO_AWS[0] },
      { provider: "aws", accountId: DEMO_AWS[0] },
    ];
    const r = await call(sandbox, "PUT", `/groups/${g.id}/members`, { token, json: { members } });
    expect(r.status).toBe(200);
    expect(CloudGroup.parse(r.body).members).toEqual([
      { provider: "aws", accountId: DEMO_AWS[0] },
      { provider: "azure", accountId: DEMO_AZURE[1] },
    ]);
    const cleared = await call(sandbox, "PUT", `/groups/${g.id}/members`, { token, json: { members: [] } });
    expect(CloudGroup.parse(cleared.body).members).toEqual([]);
  });

  it("rejects accounts that are not connected with a 422 naming each offending ID, and changes nothing", async () => {
    const g = await createGroup("Strangers");
    await call(sandbox, "PUT", `/groups/${g.id}/members`, { token, json: { members: [{ provider: "aws", accountId: DEMO_AWS[0] }] } });
    const before = await getGroup(g.id);
    const r = await call(sandbox, "PUT", `/groups/${g.id}/members`, {
      token,
      json: {
        members: [
          { provider: "aws", accountId: DEMO_AWS[1] },
          { provider: "aws", accountId: "000000000000" },
          { provider: "azure", accountId: "11111111-2222-3333-4444-555555555555" },
        ],
      },
    });
    expect(r.status).toBe(422);
    const problem = Problem.parse(r.body);
    expect(problem.errors).toEqual([
      expect.objectContaining({
        path: "body.members.1.accountId",
        code: "unknown_account",
        message: expect.stringContaining("000000000000"),
      }),
      expect.objectContaining({
        path: "body.members.2.accountId",
        code: "unknown_account",
        message: expect.stringContaining("11111111-2222-3333-4444-555555555555"),
      }),
    ]);
    const one = await call(sandbox, "POST", `/groups/${g.id}/members`, { token, json: { provider: "aws", accountId: "000000000000" } });
    expect(one.status).toBe(422);
    expect(Problem.parse(one.body).errors).toEqual([
      expect.objectContaining({ path: "body.accountId", message: expect.stringContaining("000000000000") }),
    ]);
    expect(await getGroup(g.id)).toEqual(before);
  });

  it.each([
    [{ provider: "aws", accountId: "12345" }, "body.accountId"],
    [{ provider: "azure", accountId: "not-a-guid" }, "body.accountId"],
    [{ provider: "gcp", accountId: "123456789012" }, "body.provider"],
  ])("rejects the malformed member %j with a 400 naming %s", async (member, path) => {
    const g = await createGroup(`Malformed ${path} ${JSON.stringify(member).length}${member.provider}`);
    const r = await call(sandbox, "POST", `/groups/${g.id}/members`, { token, json: member });
    expect(r.status).toBe(400);
    expect(Problem.parse(r.body).errors?.map((e) => e.path)).toContain(path);
  });

  it("refuses to delete a group while an alert or a report uses it (409), then deletes it", async () => {
    const g = await createGroup("In use");
    const alert = fields(await call(sandbox, "POST", "/alerts", { token, json: alertBody({ groupId: g.id }) }));
    const report = fields(await call(sandbox, "POST", "/reports", { token, json: reportBody({ groupId: g.id }) }));
    const refused = await call(sandbox, "DELETE", `/groups/${g.id}`, { token });
    expect(refused.status).toBe(409);
    expect(Problem.parse(refused.body).detail).toEqual(expect.stringContaining(String(alert.id)));
    expect(Problem.parse(refused.body).detail).toEqual(expect.stringContaining(String(report.id)));
    expect((await call(sandbox, "DELETE", `/alerts/${String(alert.id)}`, { token })).status).toBe(204);
    expect((await call(sandbox, "DELETE", `/groups/${g.id}`, { token })).status).toBe(409);
    expect((await call(sandbox, "DELETE", `/reports/${String(report.id)}`, { token })).status).toBe(204);
    expect((await call(sandbox, "DELETE", `/groups/${g.id}`, { token })).status).toBe(204);
    expect((await call(sandbox, "GET", `/groups/${g.id}`, { token })).status).toBe(404);
  });

  it("answers 404 for a well-formed unknown ID and for a malformed one", async () => {
    expect((await call(sandbox, "GET", "/groups/grp_0000000000000000", { token })).status).toBe(404);
    const malformed = await call(sandbox, "GET", "/groups/nope", { token });
    expect(malformed.status).toBe(404);
    expect(Problem.parse(malformed.body).errors).toEqual([expect.objectContaining({ path: "params.groupId" })]);
  });

  describe("spec rule 1: an API group behaves like a portal group", () => {
    const window = `from=${daysFromToday(-20)}&to=${daysFromToday(-1)}`;
    const summary = async (groupId?: string) =>
      CostSummary.parse((await call(sandbox, "GET", `/cost/summary?${window}${groupId ? `&groupId=${groupId}` : ""}`, { token })).body);

    it("appears in the global filter at once, next to the portal-made group", async () => {
      const g = await createGroup("Filter me");
      const filter = GlobalFilter.parse((await call(sandbox, "GET", "/filters", { token })).body);
      expect(filter.groups).toEqual(
        expect.arrayContaining([
          { id: g.id, name: "Filter me", source: "api", memberCount: 0 },
          expect.objectContaining({ name: "Production", source: "portal" }),
        ]),
      );
      await call(sandbox, "POST", `/groups/${g.id}/members`, { token, json: { provider: "aws", accountId: DEMO_AWS[0] } });
      const after = GlobalFilter.parse((await call(sandbox, "GET", "/filters", { token })).body);
      expect(after.groups.find((x) => x.id === g.id)?.memberCount).toBe(1);
    });

    it("costs nothing while empty and the sum of its members once filled, at once", async () => {
      const g = await createGroup("Costed");
      const empty = await summary(g.id);
      expect(empty).toMatchObject({ groupId: g.id, total: 0, forecast: { total: 0 } });
      expect(empty.byProvider).toEqual([
        { provider: "aws", amount: 0 },
        { provider: "azure", amount: 0 },
      ]);
      const a = await createGroup("Costed AWS");
      const b = await createGroup("Costed Azure");
      await call(sandbox, "PUT", `/groups/${a.id}/members`, { token, json: { members: [{ provider: "aws", accountId: DEMO_AWS[0] }] } });
      await call(sandbox, "PUT", `/groups/${b.id}/members`, {
        token,
        json: { members: [{ provider: "azure", accountId: DEMO_AZURE[0] }] },
      });
      await call(sandbox, "PUT", `/groups/${g.id}/members`, {
        token,
        json: {
          members: [
            { provider: "aws", accountId: DEMO_AWS[0] },
            { provider: "azure", accountId: DEMO_AZURE[0] },
          ],
        },
      });
      const [both, aws, azure] = [await summary(g.id), await summary(a.id), await summary(b.id)];
      expect(aws.total).toBeGreaterThan(0);
      expect(both.total).toBeCloseTo(aws.total + azure.total, 2);
      expect(both.byProvider).toEqual([
        { provider: "aws", amount: aws.total },
        { provider: "azure", amount: azure.total },
      ]);
      expect((await summary()).total).toBeGreaterThan(both.total);
    });
  });
});
