import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { databaseFingerprint } from "./database-fingerprint";
import { DEMO_AWS, DEMO_AZURE, alertBody, call, expectProblem, fields, reportBody, type Reply } from "./api-client";

/**
 * Issue 38: `POST /{groups,alerts,reports}:validate` answers exactly the problem the real create or change
 * gets — same status, problem type, detail and field errors (code, message, path) — for every rule that needs
 * the organization, and writes nothing: the database (every table but `token_use`, which records the token's
 * last use on any request) is byte for byte the same after each dry-run.
 */
describe("dry-runs of creates and changes (issue 38)", () => {
  let sandbox: RunningSandbox;
  let token: string;
  let groupId: string;
  let alertId: string;
  let reportId: string;
  const NOT_CONNECTED = "999999999999";

  const fingerprint = () => databaseFingerprint(sandbox.dataDir);
  /** A problem without what differs between any two requests (`instance` names the request). */
  const comparable = (reply: Reply, status: number) => {
    const { instance: _instance, requestId: _requestId, ...rest } = expectProblem(reply, status) as Record<string, unknown>;
    return rest;
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
    const made = async (path: string, json: unknown) => String(fields(await call(sandbox, "POST", path, { token, json })).id);
    groupId = await made("/groups", { name: "Staging" });
    await made("/groups", { name: "Taken" });
    expect(
      (
        await call(sandbox, "PUT", `/groups/${groupId}/members`, {
          token,
          json: { members: [{ provider: "aws", accountId: DEMO_AWS[1] }] },
        })
      ).status,
    ).toBe(200);
    alertId = await made("/alerts", alertBody());
    reportId = await made("/reports", reportBody());
  });
  afterAll(() => sandbox.dispose());

  /** The dry-run and the real request, each on an unchanged database: the same problem, and nothing written by either. */
  async function same(dryRun: [string, unknown], real: [string, string, unknown], status: number): Promise<Record<string, unknown>> {
    const before = fingerprint();
    const validated = await call(sandbox, "POST", dryRun[0], { token, json: dryRun[1] });
    expect(fingerprint()).toBe(before);
    const applied = await call(sandbox, real[0], real[1], { token, json: real[2] });
    expect(fingerprint()).toBe(before);
    const problem = comparable(validated, status);
    expect(problem).toEqual(comparable(applied, status));
    return problem;
  }
  const codes = (problem: Record<string, unknown>) =>
    (problem.errors as { path: string; code: string }[]).map((e) => `${e.path} ${e.code}`);

  describe("Cloud Groups", () => {
    it("a new group's name already taken: the create's 409 on body.name", async () => {
      const problem = await same(["/groups:validate", { name: "taken", members: [] }], ["POST", "/groups", { name: "taken" }], 409);
      expect(codes(problem)).toEqual(["body.name duplicate_name"]);
    });
    it("a new group's member not connected: the member set's 422 on body.members.N.accountId", async () => {
      const members = [
        { provider: "aws", accountId: DEMO_AWS[0] },
        { provider: "aws", accountId: NOT_CONNECTED },
      ];
      const problem = await same(["/groups:validate", { name: "Fresh", members }], ["PUT", `/groups/${groupId}/members`, { members }], 422);
      expect(codes(problem)).toEqual(["body.members.1.accountId unknown_account"]);
    });
    it("a rename to a taken name, by id and by current name: the PATCH's 409", async () => {
      const real: [string, string, unknown] = ["PATCH", `/groups/${groupId}`, { name: "TAKEN" }];
      await same([`/groups:validate?groupId=${groupId}`, { name: "TAKEN" }], real, 409);
      const problem = await same(["/groups:validate?currentName=staging", { name: "TAKEN" }], real, 409);
      expect(codes(problem)).toEqual(["body.name duplicate_name"]);
    });
    it("a change of a group that is gone: the PATCH's 404", async () => {
      const gone = "grp_0123456789abcdefghijkl";
      await same([`/groups:validate?groupId=${gone}`, { name: "Any" }], ["PATCH", `/groups/${gone}`, { name: "Any" }], 404);
    });
    it("accepts what the real requests accept, writing nothing: 204", async () => {
      const before = fingerprint();
      const members = [{ provider: "azure", accountId: DEMO_AZURE[0] }];
      for (const [path, json] of [
        ["/groups:validate", { name: "Brand new", members }],
        // Its own name, in another case: the PATCH excludes the group itself from the uniqueness check.
        [`/groups:validate?groupId=${groupId}`, { name: "STAGING", members }],
        ["/groups:validate?currentName=Staging", { name: "Staging", description: "changed", members }],
      ] as const)
        expect((await call(sandbox, "POST", path, { token, json })).status).toBe(204);
      expect(fingerprint()).toBe(before);
      expect(fields(await call(sandbox, "GET", `/groups/${groupId}`, { token })).members).toEqual([
        { provider: "aws", accountId: DEMO_AWS[1] },
      ]);
    });
  });

  // Each rule that needs the organization, on the filters (and the group) of an alert or a report.
  const rules: [string, (ids: { groupId: string }) => Record<string, unknown>, string[]][] = [
    ["a Cloud Group that does not exist", () => ({ groupId: "grp_0123456789abcdefghijkl" }), ["body.groupId unknown_group"]],
    ["an account not connected", () => ({ filters: { accountIds: [NOT_CONNECTED] } }), ["body.filters.accountIds.0 unknown_account"]],
    [
      "an account not in the group",
      (ids) => ({ groupId: ids.groupId, filters: { accountIds: [DEMO_AWS[0]] } }),
      ["body.filters.accountIds.0 not_in_group"],
    ],
    [
      "a provider, service and region no account in scope has",
      (ids) => ({ groupId: ids.groupId, filters: { providers: ["azure"], services: ["Virtual Machines"], regions: ["westeurope"] } }),
      [
        "body.filters.providers.0 no_account_of_provider",
        "body.filters.services.0 no_account_of_provider",
        "body.filters.regions.0 no_account_of_provider",
      ],
    ],
    [
      "a tag key that is not a cost allocation tag",
      () => ({ filters: { tags: [{ key: "owner", values: ["x"] }] } }),
      ["body.filters.tags.0.key unknown_tag_key"],
    ],
  ];
  describe.each([
    ["alerts", alertBody, () => alertId, "alertId"],
    ["reports", reportBody, () => reportId, "reportId"],
  ] as const)("%s", (plural, body, idOf, idName) => {
    it.each(rules)("%s: the create's and the replace's 422, on the same paths", async (_name, overrides, expected) => {
      const json = body(overrides({ groupId }));
      expect(codes(await same([`/${plural}:validate`, json], ["POST", `/${plural}`, json], 422))).toEqual(expected);
      const put: [string, string, unknown] = ["PUT", `/${plural}/${idOf()}`, json];
      expect(codes(await same([`/${plural}:validate?${idName}=${idOf()}`, json], put, 422))).toEqual(expected);
    });
    it("a replace of one that is gone: the PUT's 404", async () => {
      const gone = `${plural === "alerts" ? "alr" : "rpt"}_0123456789abcdefghijkl`;
      await same([`/${plural}:validate?${idName}=${gone}`, body()], ["PUT", `/${plural}/${gone}`, body()], 404);
    });
    it("accepts a valid create and replace with 204, and sends no Idempotency-Key record", async () => {
      const before = fingerprint();
      const headers = { "idempotency-key": "dry-run-is-not-remembered" };
      expect((await call(sandbox, "POST", `/${plural}:validate`, { token, json: body(), headers })).status).toBe(204);
      expect(
        (await call(sandbox, "POST", `/${plural}:validate?${idName}=${idOf()}`, { token, json: body({ name: "Renamed" }) })).status,
      ).toBe(204);
      expect(fingerprint()).toBe(before);
      expect(fields(await call(sandbox, "GET", `/${plural}/${idOf()}`, { token })).name).not.toBe("Renamed");
    });
  });

  it("the fingerprint sees a write (so an unchanged one means nothing was written)", async () => {
    const before = fingerprint();
    expect((await call(sandbox, "PATCH", `/groups/${groupId}`, { token, json: { description: "written" } })).status).toBe(200);
    expect(fingerprint()).not.toBe(before);
  });

  it("needs only the read scope: a read-only token gets the same checks", async () => {
    const readOnly = await sandbox.token("read");
    const reply = await call(sandbox, "POST", "/groups:validate", { token: readOnly, json: { name: "taken" } });
    expect(expectProblem(reply, 409).errors?.[0]?.code).toBe("duplicate_name");
  });
});
