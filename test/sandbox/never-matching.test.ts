import { BudgetAlert, Problem } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, DEMO_AZURE, alertBody, call, expectProblem, fields, reportBody } from "./api-client";

/**
 * Issue 33 items 6 and 7: a filter that could never match is refused with a field error naming each value
 * (400 when the values alone rule it out, 422 when the organization does), on alerts, reports and cost
 * reads alike, and nothing is stored (a tag value nothing carries yet can match tomorrow: accepted, issue 37); spend is booked only on a service the cost data names, of the
 * account's provider (422 naming `body.service`, with the close matches), so a filtered budget sees it.
 */
describe("filters that could never match, and spend the cost data cannot hold", () => {
  let sandbox: RunningSandbox;
  let token: string;
  let groupId: string;
  const window = "from=2026-10-01&to=2026-10-31";
  const spend = (json: unknown) =>
    fetch(`${sandbox.origin}/sandbox/v1/spend`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
  const count = async (path: string) => (fields(await call(sandbox, "GET", `${path}?limit=200`, { token })).items as unknown[]).length;

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
    // A group of one AWS account: no Azure account, and two AWS accounts outside it.
    const group = await call(sandbox, "POST", "/groups", { token, json: { name: "Only staging" } });
    groupId = String(fields(group).id);
    const members = await call(sandbox, "PUT", `/groups/${groupId}/members`, {
      token,
      json: { members: [{ provider: "aws", accountId: DEMO_AWS[1] }] },
    });
    expect(members.status).toBe(200);
  });
  afterAll(() => sandbox.dispose());

  const never: [string, Record<string, unknown>, number, string[]][] = [
    [
      "an Azure subscription and an AWS service",
      { accountIds: [DEMO_AZURE[0]], services: ["Amazon EC2"] },
      400,
      ["accountIds.0", "services.0"],
    ],
    ["an AWS service and an Azure region", { services: ["Amazon EC2"], regions: ["eastus"] }, 400, ["services.0", "regions.0"]],
    ["an AWS account and an Azure region", { accountIds: [DEMO_AWS[0]], regions: ["westeurope"] }, 400, ["accountIds.0", "regions.0"]],
    ["a global service and a regional code", { services: ["Amazon CloudFront"], regions: ["us-east-1"] }, 400, ["services.0", "regions.0"]],
    ["a regional service and `global`", { services: ["Amazon S3"], regions: ["global"] }, 400, ["services.0", "regions.0"]],
    [
      "one account of each provider, AWS services only",
      { accountIds: [DEMO_AWS[0], DEMO_AZURE[0]], services: ["Amazon EC2"] },
      400,
      ["accountIds.1"],
    ],
    ["a tag key that is not a cost allocation tag", { tags: [{ key: "squad", values: ["web"] }] }, 422, ["tags.0.key"]],
  ];
  const inGroup: [string, Record<string, unknown>, string[], string][] = [
    ["a connected account outside the group", { accountIds: [DEMO_AWS[0]] }, ["accountIds.0"], "not_in_group"],
    ["a service of a provider the group has no account of", { services: ["Virtual Machines"] }, ["services.0"], "no_account_of_provider"],
    ["a region of that provider", { regions: ["westeurope"] }, ["regions.0"], "no_account_of_provider"],
    ["that provider", { providers: ["azure"] }, ["providers.0"], "no_account_of_provider"],
  ];
  const paths = (problem: Problem, prefix: string) => (problem.errors ?? []).map((e) => e.path.slice(prefix.length));
  const query = (filters: Record<string, unknown>) =>
    Object.entries(filters)
      .flatMap(([key, values]) =>
        key === "tags"
          ? (values as { key: string; values: string[] }[]).flatMap((t) =>
              t.values.map((v) => `tag=${encodeURIComponent(`${t.key}=${v}`)}`),
            )
          : (values as string[]).map((v) => `${key}=${encodeURIComponent(v)}`),
      )
      .join("&");

  it.each(never)(
    "refuses %s on alerts, reports and cost reads, naming each value, storing nothing",
    async (_what, filters, status, named) => {
      const before = [await count("/alerts"), await count("/reports")];
      const alert = expectProblem(await call(sandbox, "POST", "/alerts", { token, json: alertBody({ filters }) }), status);
      expect(paths(alert, "body.filters.")).toEqual(named);
      const report = expectProblem(await call(sandbox, "POST", "/reports", { token, json: reportBody({ filters }) }), status);
      expect(paths(report, "body.filters.")).toEqual(named);
      const read = expectProblem(await call(sandbox, "GET", `/cost/summary?${window}&${query(filters)}`, { token }), status);
      expect(paths(read, "query.")).toEqual(named.map((p) => p.replace(/^tags\./, "tag.")));
      expect([await count("/alerts"), await count("/reports")]).toEqual(before);
    },
  );

  it.each(inGroup)("refuses, in a group, %s (422)", async (_what, filters, named, code) => {
    const alert = expectProblem(await call(sandbox, "POST", "/alerts", { token, json: alertBody({ groupId, filters }) }), 422);
    expect(paths(alert, "body.filters.")).toEqual(named);
    expect(alert.errors?.[0]?.code).toBe(code);
    const read = expectProblem(await call(sandbox, "GET", `/cost/summary?${window}&groupId=${groupId}&${query(filters)}`, { token }), 422);
    expect(paths(read, "query.")).toEqual(named);
    // The same filter on the whole organization can match: accepted.
    expect((await call(sandbox, "GET", `/cost/summary?${window}&${query(filters)}`, { token })).status).toBe(200);
  });

  it("accepts the combinations that can match", async () => {
    for (const filters of [
      { accountIds: [DEMO_AWS[0], DEMO_AZURE[0]], services: ["Amazon EC2", "Virtual Machines"] },
      { services: ["Amazon CloudFront", "Amazon EC2"], regions: ["global", "us-east-1"] },
      { providers: ["aws"], accountIds: [DEMO_AWS[1]], services: ["Amazon EC2"], tags: [{ key: "team", values: ["web"] }] },
    ]) {
      const created = await call(sandbox, "POST", "/alerts", { token, json: alertBody({ filters }) });
      expect([created.status, created.text]).toEqual([201, created.text]);
    }
  });

  // Issue 37: a budget declared with the infrastructure it watches names a tag value before anything so
  // tagged has spent (AWS and GCP budgets accept any value of an active tag key).
  it("accepts a value of a known tag key that nothing carries yet, on alerts, reports and cost reads", async () => {
    const filters = { tags: [{ key: "team", values: ["new-team"] }] };
    for (const [path, body] of [
      ["/alerts", alertBody({ filters })],
      ["/reports", reportBody({ filters })],
    ] as const) {
      const created = await call(sandbox, "POST", path, { token, json: body });
      expect([created.status, created.text]).toEqual([201, created.text]);
      expect(fields(created).filters).toEqual(filters);
    }
    const read = await call(sandbox, "GET", `/cost/summary?${window}&${query(filters)}`, { token });
    expect([read.status, fields(read).total]).toEqual([200, 0]);
  });

  it("refuses spend on a service the cost data does not name, with the close matches, and books nothing", async () => {
    const summary = async () => fields(await call(sandbox, "GET", `/cost/summary?${window}`, { token })).total;
    const before = await summary();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ accountId: DEMO_AWS[1], service: "AmazonEC2", amount: 150 }, "unknown_service", /did you mean "Amazon EC2"\?/],
      [{ accountId: DEMO_AWS[1], service: "lambda", amount: 1 }, "unknown_service", /did you mean "AWS Lambda"\?/],
      [{ accountId: DEMO_AWS[1], service: "Compute", amount: 1 }, "unknown_service", /AWS services: Amazon EC2, /],
      [
        { accountId: DEMO_AWS[1], service: "Virtual Machines", amount: 1 },
        "service_of_other_provider",
        /is an Azure service, and \d{12} is an AWS account/,
      ],
      [
        { accountId: DEMO_AZURE[0], service: "Amazon EC2", amount: 1 },
        "service_of_other_provider",
        /is an AWS service, and .+ is an Azure account/,
      ],
    ];
    for (const [json, code, message] of cases) {
      const reply = await spend(json);
      expect(reply.status).toBe(422);
      const problem = Problem.parse(await reply.json());
      expect(problem.errors).toEqual([{ path: "body.service", code, message: expect.stringMatching(message) }]);
    }
    expect(await summary()).toEqual(before);
  });

  it("books spend on a known service, so a service-filtered budget counts it", async () => {
    const created = await call(sandbox, "POST", "/alerts", {
      token,
      json: alertBody({ groupId, filters: { services: ["Amazon EC2"] } }),
    });
    const alert = BudgetAlert.parse(fields(created));
    const booked = await spend({ accountId: DEMO_AWS[1], service: "Amazon EC2", amount: 150 });
    expect(booked.status).toBe(200);
    const after = BudgetAlert.parse(fields(await call(sandbox, "GET", `/alerts/${alert.id}`, { token })));
    expect(after.currentSpend).toBeCloseTo(alert.currentSpend + 150, 2);
  });
});
