import { CLIENT_REGISTRATIONS_PER_MINUTE } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_USER } from "../oauth/support/demo-user";
import { UserAgent, hiddenFields } from "../oauth/support/user-agent";
import { DOCUMENT_PATH, loadContract, type Operation } from "./support/contract";
import { ExchangeLog, type Reply, type Targets } from "./support/exchanges";
import { startPrism, type PrismProxy } from "./support/prism";

/**
 * Conformance of the service with its OpenAPI document, judged by third-party validators: every
 * operation of the document is driven through Stoplight Prism's validating proxy (happy paths and the
 * error paths a client can cause), and every exchange is checked for Prism violations, undocumented
 * statuses, undeclared headers, undocumented media types and bodies that fail their schema (Ajv). Then:
 * every operation answered a success, every documented status was produced, every declared header sent.
 * An operation added to the document without being exercised here fails the last checks, which judge
 * every exchange of the file: run the file whole (a `-t` filter leaves statuses unseen).
 */

const contract = loadContract();
const API = "/api/v1";

const REDIRECT_URI = "http://127.0.0.1:8976/callback";
/** RFC 7636 Appendix B. */
const CODE_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const UNKNOWN: Record<string, string> = {
  groupId: "grp_0000000000zz",
  alertId: "alr_0000000000zz",
  reportId: "rpt_0000000000zz",
  runId: "run_0000000000zz",
  findingId: "999999999",
  eventId: "evt_0000000000zz",
  provider: "aws",
  accountId: "123456789012",
};
const alertBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Monthly cap",
  amount: 5000,
  currency: "USD",
  period: "monthly",
  thresholds: [{ percent: 80, basis: "actual" }],
  recipients: ["finops@example.com"],
  ...overrides,
});
const reportBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Weekly summary",
  report: "summary",
  schedule: { frequency: "weekly", dayOfWeek: "monday", time: "09:00", timezone: "Europe/Berlin" },
  recipients: ["finops@example.com"],
  ...overrides,
});
/** A body each operation with path parameters and a body accepts, to reach its 404. */
const VALID_BODY: Record<string, () => unknown> = {
  updateGroup: () => ({ name: "n" }),
  replaceMembers: () => ({ members: [] }),
  addMember: () => ({ provider: "aws", accountId: "111122223333" }),
  replaceAlert: () => alertBody(),
  replaceReport: () => reportBody(),
};
const COST_WINDOW = "from=2026-10-01&to=2026-10-31";

/** A request path of `op` with every path parameter filled in. */
const pathOf = (op: Operation, values: Record<string, string> = UNKNOWN): string =>
  op.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? UNKNOWN[name]!);
const apiOperations = () => contract.operations.filter((o) => o.base === API && o.secured);
const readsBody = (op: Operation) => op.method !== "GET";
const field = (reply: Reply, name: string): string => String((reply.body as Record<string, unknown>)[name]);
const form = (fields: Record<string, string>) => ({
  raw: new URLSearchParams(fields).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

describe("the service conforms to api/openapi.json (Prism proxy + Ajv)", () => {
  let sandbox: RunningSandbox;
  let limited: RunningSandbox;
  let unavailable: RunningSandbox;
  let proxies: PrismProxy[] = [];
  let log: ExchangeLog;
  let targets: Targets;
  let token: string;

  beforeAll(async () => {
    [sandbox, limited, unavailable] = await Promise.all([
      startSandbox({ args: ["--rate-limit", "100000"] }),
      startSandbox({ args: ["--rate-limit", "1"] }),
      startSandbox({ args: ["--faults", "1", "--fault-kinds", "503"] }),
    ]);
    const bases = [...new Set(contract.operations.map((o) => o.base))];
    proxies = await Promise.all(bases.map((b) => startPrism(DOCUMENT_PATH, new URL(b, sandbox.origin).href.replace(/\/$/, ""))));
    const prism = new Map(bases.map((b, i) => [b, proxies[i]!.url]));
    const direct = new Map(bases.map((b) => [b, new URL(b, sandbox.origin).href.replace(/\/$/, "")]));
    targets = { prism, direct };
    log = new ExchangeLog(contract, targets);
    token = await sandbox.token("read,write,run");
  });
  afterAll(async () => {
    await Promise.all([...proxies.map((p) => p.stop()), sandbox?.dispose(), limited?.dispose(), unavailable?.dispose()]);
  });

  it("Cloud Groups and members: happy paths, stated rules and conflicts", async () => {
    const created = await log.send({
      method: "POST",
      path: "/groups",
      token,
      json: { name: "Conformance", description: "x" },
      headers: { "idempotency-key": "grp-1" },
    });
    expect(created.status).toBe(201);
    const id = field(created, "id");
    const etag = created.headers.get("etag")!;
    expect(
      (
        await log.send({
          method: "POST",
          path: "/groups",
          token,
          json: { name: "Conformance", description: "x" },
          headers: { "idempotency-key": "grp-1" },
        })
      ).headers.get("idempotent-replayed"),
    ).toBe("true");
    expect(
      (await log.send({ method: "POST", path: "/groups", token, json: { name: "Other" }, headers: { "idempotency-key": "grp-1" } })).status,
    ).toBe(422);
    expect((await log.send({ method: "POST", path: "/groups", token, json: { name: "Conformance" } })).status).toBe(409);
    // Rules the schema states: Prism must see each broken one, and the service refuses it.
    for (const json of [{ name: "   " }, { name: "" }, { name: "x", colour: "red" }])
      expect((await log.send({ method: "POST", path: "/groups", token, json, intent: "invalid" })).status).toBe(400);
    expect(
      (
        await log.send({
          method: "POST",
          path: "/groups",
          token,
          json: { name: "k" },
          headers: { "idempotency-key": "has space" },
          intent: "invalid",
        })
      ).status,
    ).toBe(400);
    expect((await log.send({ method: "GET", path: "/groups?limit=0", token, intent: "invalid" })).status).toBe(400);
    expect((await log.send({ method: "GET", path: "/groups?limit=2", token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: `/groups/${id}`, token })).status).toBe(200);

    const other = field(await log.send({ method: "POST", path: "/groups", token, json: { name: "Second" } }), "id");
    expect((await log.send({ method: "PATCH", path: `/groups/${id}`, token, json: {}, intent: "invalid" })).status).toBe(400);
    expect((await log.send({ method: "PATCH", path: `/groups/${id}`, token, json: { name: "Second" } })).status).toBe(409);
    // The dry-run (issue 38): 204, or the real requests' 400, 404, 409 and 422.
    const dryRun = (query: string, json: unknown, intent?: "invalid") =>
      log.send({ method: "POST", path: `/groups:validate${query}`, token, json, ...(intent ? { intent } : {}) });
    expect((await dryRun("", { name: "Fresh", members: [] })).status).toBe(204);
    expect((await dryRun(`?groupId=${id}`, { name: "conformance" })).status).toBe(204);
    expect((await dryRun("", { name: "Second" })).status).toBe(409);
    expect((await dryRun("?currentName=conformance", { name: "Second" })).status).toBe(409);
    expect((await dryRun("", { name: "Fresh", members: [{ provider: "aws", accountId: "999999999999" }] })).status).toBe(422);
    expect((await dryRun(`?groupId=${UNKNOWN.groupId}`, { name: "x" })).status).toBe(404);
    expect((await dryRun("?currentName=Nobody", { name: "x" })).status).toBe(404);
    expect((await dryRun("", { name: "" }, "invalid")).status).toBe(400);
    expect((await dryRun("?groupId=nope", { name: "x" }, "invalid")).status).toBe(400);
    expect(
      (await log.send({ method: "PATCH", path: `/groups/${id}`, token, json: { description: "y" }, headers: { "if-match": '"stale"' } }))
        .status,
    ).toBe(412);
    const renamed = await log.send({
      method: "PATCH",
      path: `/groups/${id}`,
      token,
      json: { description: "y" },
      headers: { "if-match": etag },
    });
    expect(renamed.status).toBe(200);

    const members = `/groups/${id}/members`;
    expect((await log.send({ method: "GET", path: members, token })).status).toBe(200);
    expect(
      (await log.send({ method: "PUT", path: members, token, json: { members: [{ provider: "aws", accountId: "111122223333" }] } })).status,
    ).toBe(200);
    expect(
      (await log.send({ method: "PUT", path: members, token, json: { members: [{ provider: "aws", accountId: "999999999999" }] } })).status,
    ).toBe(422);
    expect(
      (
        await log.send({
          method: "PUT",
          path: members,
          token,
          json: { members: [{ provider: "aws", accountId: "12" }] },
          intent: "invalid",
        })
      ).status,
    ).toBe(400);
    expect(
      (await log.send({ method: "PUT", path: members, token, json: { members: [] }, headers: { "if-match": '"stale"' } })).status,
    ).toBe(412);
    expect(
      (
        await log.send({
          method: "POST",
          path: members,
          token,
          json: { provider: "azure", accountId: "0b1f6471-1bf0-4dda-aec3-cb9272f09590" },
        })
      ).status,
    ).toBe(200);
    expect((await log.send({ method: "POST", path: members, token, json: { provider: "aws", accountId: "999999999999" } })).status).toBe(
      422,
    );
    expect(
      (await log.send({ method: "POST", path: members, token, json: { provider: "gcp", accountId: "x" }, intent: "invalid" })).status,
    ).toBe(400);
    expect(
      (await log.send({ method: "DELETE", path: `${members}/aws/111122223333`, token, headers: { "if-match": '"stale"' } })).status,
    ).toBe(412);
    expect((await log.send({ method: "DELETE", path: `${members}/aws/111122223333`, token })).status).toBe(200);

    const alert = await log.send({ method: "POST", path: "/alerts", token, json: alertBody({ groupId: other }) });
    expect((await log.send({ method: "DELETE", path: `/groups/${other}`, token })).status).toBe(409);
    expect((await log.send({ method: "DELETE", path: `/alerts/${field(alert, "id")}`, token })).status).toBe(204);
    expect((await log.send({ method: "DELETE", path: `/groups/${other}`, token, headers: { "if-match": '"stale"' } })).status).toBe(412);
    expect((await log.send({ method: "DELETE", path: `/groups/${other}`, token, headers: { "if-match": "*" } })).status).toBe(204);
  });

  it("budget alerts and scheduled reports: money, currencies and schedules as the schema states them", async () => {
    for (const [plural, body] of [
      ["alerts", alertBody],
      ["reports", reportBody],
    ] as const) {
      const created = await log.send({
        method: "POST",
        path: `/${plural}`,
        token,
        json: body(),
        headers: { "idempotency-key": `${plural}-1` },
      });
      expect(created.status).toBe(201);
      const one = `/${plural}/${field(created, "id")}`;
      expect(
        (
          await log.send({ method: "POST", path: `/${plural}`, token, json: body(), headers: { "idempotency-key": `${plural}-1` } })
        ).headers.get("idempotent-replayed"),
      ).toBe("true");
      expect(
        (
          await log.send({
            method: "POST",
            path: `/${plural}`,
            token,
            json: body({ name: "Other" }),
            headers: { "idempotency-key": `${plural}-1` },
          })
        ).status,
      ).toBe(422);
      expect((await log.send({ method: "POST", path: `/${plural}`, token, json: body({ groupId: UNKNOWN.groupId }) })).status).toBe(422);
      expect((await log.send({ method: "POST", path: `/${plural}`, token, json: body({ name: " \t " }), intent: "invalid" })).status).toBe(
        400,
      );
      expect((await log.send({ method: "GET", path: `/${plural}?limit=1`, token })).status).toBe(200);
      expect((await log.send({ method: "GET", path: `/${plural}?limit=201`, token, intent: "invalid" })).status).toBe(400);
      expect((await log.send({ method: "GET", path: one, token })).status).toBe(200);
      expect((await log.send({ method: "PUT", path: one, token, json: body({ enabled: false }) })).status).toBe(200);
      expect((await log.send({ method: "PUT", path: one, token, json: body({ groupId: UNKNOWN.groupId }) })).status).toBe(422);
      expect((await log.send({ method: "PUT", path: one, token, json: body(), headers: { "if-match": '"stale"' } })).status).toBe(412);
      expect((await log.send({ method: "PUT", path: one, token, json: body({ enabled: "yes" }), intent: "invalid" })).status).toBe(400);
      // The dry-run (issue 38): 204, or the real requests' 400, 404 and 422.
      const idName = plural === "alerts" ? "alertId" : "reportId";
      const validate = `/${plural}:validate`;
      expect((await log.send({ method: "POST", path: validate, token, json: body() })).status).toBe(204);
      expect((await log.send({ method: "POST", path: `${validate}?${idName}=${field(created, "id")}`, token, json: body() })).status).toBe(
        204,
      );
      expect((await log.send({ method: "POST", path: validate, token, json: body({ groupId: UNKNOWN.groupId }) })).status).toBe(422);
      expect((await log.send({ method: "POST", path: `${validate}?${idName}=${UNKNOWN[idName]}`, token, json: body() })).status).toBe(404);
      expect((await log.send({ method: "POST", path: validate, token, json: body({ name: " \t " }), intent: "invalid" })).status).toBe(400);
      expect((await log.send({ method: "DELETE", path: one, token, headers: { "if-match": '"stale"' } })).status).toBe(412);
      expect((await log.send({ method: "DELETE", path: one, token })).status).toBe(204);
    }
    for (const amount of [1250.5, 99.99, 0.01])
      expect((await log.send({ method: "POST", path: "/alerts", token, json: alertBody({ amount }) })).status).toBe(201);
    const invalidAlerts = [
      { amount: 10.005 },
      { amount: 0 },
      { currency: "usd" },
      { currency: "ABC" },
      { thresholds: [] },
      {
        thresholds: [
          { percent: 80, basis: "actual" },
          { percent: 80, basis: "actual" },
        ],
      },
    ];
    for (const overrides of invalidAlerts)
      expect((await log.send({ method: "POST", path: "/alerts", token, json: alertBody(overrides), intent: "invalid" })).status).toBe(400);
    // Issue 27: every new field, as the document describes it (filters, absolute thresholds with their own
    // recipients, planned amounts, amounts from history, an active window), and the outputs it adds.
    const deep = await log.send({
      method: "POST",
      path: "/alerts",
      token,
      json: alertBody({
        filters: {
          providers: ["aws"],
          // Each region bills one of the services: EC2 in us-east-1, CloudFront (a global service) in `global`.
          services: ["Amazon EC2", "Amazon CloudFront"],
          regions: ["us-east-1", "global"],
          tags: [{ key: "team", values: ["data"] }],
        },
        thresholds: [
          { amount: 1500, basis: "forecast", recipients: ["oncall@example.com"] },
          { percent: 90, basis: "actual", recipients: [] },
        ],
        plannedAmounts: [{ periodStart: "2026-12-01", amount: 7000 }],
        startDate: "2026-11-15",
        endDate: "2027-06-30",
      }),
    });
    expect(deep.status).toBe(201);
    expect(
      (
        await log.send({
          method: "POST",
          path: "/alerts",
          token,
          json: alertBody({ period: "quarterly", autoAdjust: { lookbackPeriods: 4 } }),
        })
      ).status,
    ).toBe(201);
    const invalidDeepAlerts = [
      { filters: { services: ["Amazon EC3"] } },
      { filters: { regions: ["mars-north-1"] } },
      { filters: { accountIds: ["12345"] } },
      { filters: { tags: [{ key: "team", values: [] }] } },
      { filters: { tags: [{ key: "=", values: ["x"] }] } },
      { filters: { owners: ["me"] } },
      { thresholds: [{ percent: 80, amount: 100, basis: "actual" }] },
      { thresholds: [{ basis: "actual" }] },
      { thresholds: [{ amount: 0.001, basis: "actual" }] },
      { plannedAmounts: [{ periodStart: "2026-12-01", amount: -1 }] },
      { autoAdjust: { lookbackPeriods: 0 } },
      { autoAdjust: { lookbackPeriods: 13 } },
      { startDate: "2026-13-01" },
    ];
    for (const overrides of invalidDeepAlerts)
      expect((await log.send({ method: "POST", path: "/alerts", token, json: alertBody(overrides), intent: "invalid" })).status).toBe(400);
    // Rules across fields that only the descriptions state (Prism cannot see them): still 400 with field errors.
    const crossField = [
      {
        filters: {
          tags: [
            { key: "team", values: ["a"] },
            { key: "team", values: ["b"] },
          ],
        },
      },
      { filters: { providers: ["azure"], services: ["Amazon EC2"] } },
      // Issue 33: values no other key's values can go with.
      { filters: { accountIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"], services: ["Amazon EC2"] } },
      { filters: { services: ["Amazon EC2"], regions: ["eastus"] } },
      { plannedAmounts: [{ periodStart: "2026-12-02", amount: 10 }] },
      { endDate: "2026-11-01", startDate: "2026-11-02" },
      { autoAdjust: { lookbackPeriods: 3 }, plannedAmounts: [{ periodStart: "2026-12-01", amount: 10 }] },
    ];
    for (const overrides of crossField)
      expect((await log.send({ method: "POST", path: "/alerts", token, json: alertBody(overrides), intent: "unchecked" })).status).toBe(
        400,
      );
    // What only the organization can judge: an account that is not connected, a tag key that is not a cost allocation tag.
    for (const filters of [{ accountIds: [UNKNOWN.accountId] }, { tags: [{ key: "owner", values: ["me"] }] }])
      expect((await log.send({ method: "POST", path: "/alerts", token, json: alertBody({ filters }) })).status).toBe(422);
    expect(
      (
        await log.send({
          method: "POST",
          path: "/reports",
          token,
          json: reportBody({ report: "budget_status", format: "pdf", recipients: [], webhookUrl: "https://feed.example/cost" }),
        })
      ).status,
    ).toBe(201);
    expect(
      (await log.send({ method: "POST", path: "/reports", token, json: reportBody({ filters: { providers: ["azure"] } }) })).status,
    ).toBe(201);
    for (const schedule of [
      { frequency: "daily", time: "07:30", timezone: "UTC" },
      { frequency: "monthly", dayOfMonth: 31, time: "07:30", timezone: "Asia/Tokyo" },
    ]) {
      expect((await log.send({ method: "POST", path: "/reports", token, json: reportBody({ schedule }) })).status).toBe(201);
    }
    for (const schedule of [
      { frequency: "weekly", time: "09:00", timezone: "UTC" },
      { frequency: "daily", dayOfMonth: 3, time: "09:00", timezone: "UTC" },
      { frequency: "monthly", dayOfWeek: "monday", dayOfMonth: 1, time: "09:00", timezone: "UTC" },
      { frequency: "hourly", time: "09:00", timezone: "UTC" },
      { frequency: "daily", time: "25:00", timezone: "UTC" },
    ]) {
      expect((await log.send({ method: "POST", path: "/reports", token, json: reportBody({ schedule }), intent: "invalid" })).status).toBe(
        400,
      );
    }
    // A rule only the description states: Prism cannot know IANA zone names.
    const zone = await log.send({
      method: "POST",
      path: "/reports",
      token,
      json: reportBody({ schedule: { frequency: "daily", time: "09:00", timezone: "Mars/Olympus" } }),
      intent: "unchecked",
    });
    expect(zone.status).toBe(400);
  });

  it("costs, findings, accounts and scans", async () => {
    const group = field(await log.send({ method: "POST", path: "/groups", token, json: { name: "Costs" } }), "id");
    for (const op of contract.operations.filter((o) => o.path.startsWith("/cost/"))) {
      expect((await log.send({ method: "GET", path: `${op.path}?${COST_WINDOW}`, token })).status).toBe(200);
      expect((await log.send({ method: "GET", path: `${op.path}?${COST_WINDOW}&groupId=${group}`, token })).status).toBe(200);
      expect((await log.send({ method: "GET", path: `${op.path}?${COST_WINDOW}&groupId=${UNKNOWN.groupId}`, token })).status).toBe(404);
      const filtered = "providers=aws&services=Amazon%20EC2&services=Amazon%20S3&regions=us-east-1&tag=team%3Ddata&tag=env%3Dprod";
      expect((await log.send({ method: "GET", path: `${op.path}?${COST_WINDOW}&${filtered}`, token })).status).toBe(200);
      expect((await log.send({ method: "GET", path: `${op.path}?${COST_WINDOW}&accountIds=${UNKNOWN.accountId}`, token })).status).toBe(
        422,
      );
      expect((await log.send({ method: "GET", path: `${op.path}?${COST_WINDOW}&regions=moon-1`, token, intent: "invalid" })).status).toBe(
        400,
      );
      expect((await log.send({ method: "GET", path: `${op.path}?from=2026-02-30&to=2026-03-01`, token, intent: "invalid" })).status).toBe(
        400,
      );
    }
    for (const kind of ["insights", "waste", "recommendations"]) {
      const page = await log.send({ method: "GET", path: `/${kind}?limit=5`, token });
      expect(page.status).toBe(200);
      const first = (page.body as { items: { id: string }[] }).items[0]!;
      expect((await log.send({ method: "POST", path: `/${kind}/${first.id}/acknowledge`, token })).status).toBe(200);
      expect((await log.send({ method: "GET", path: `/${kind}?cursor=${"c".repeat(201)}`, token, intent: "invalid" })).status).toBe(400);
    }
    expect((await log.send({ method: "GET", path: "/organization", token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: "/accounts", token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: "/accounts?limit=x", token, intent: "invalid" })).status).toBe(400);
    expect((await log.send({ method: "GET", path: "/filters", token })).status).toBe(200);
    const run = await log.send({ method: "POST", path: "/scans", token, headers: { "idempotency-key": "scan-1" } });
    expect(run.status).toBe(202);
    expect(
      (await log.send({ method: "POST", path: "/scans", token, headers: { "idempotency-key": "scan-1" } })).headers.get(
        "idempotent-replayed",
      ),
    ).toBe("true");
    // The key's fingerprint is method, path and body: a body where none was sent before is another request.
    expect(
      (
        await log.send({
          method: "POST",
          path: "/scans",
          token,
          json: { again: true },
          headers: { "idempotency-key": "scan-1" },
          intent: "unchecked",
        })
      ).status,
    ).toBe(422);
    expect(
      (await log.send({ method: "POST", path: "/scans", token, headers: { "idempotency-key": "k".repeat(256) }, intent: "invalid" }))
        .status,
    ).toBe(400);
    expect((await log.send({ method: "GET", path: `/scans/${field(run, "runId")}`, token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: "/scans?limit=1", token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: "/scans?limit=-1", token, intent: "invalid" })).status).toBe(400);
    // The remembered keys: the scan started above (a run, not an object: no resourceId), by prefix and in pages.
    const keys = await log.send({ method: "GET", path: "/idempotency-keys?prefix=scan-&limit=1", token });
    expect(keys.status).toBe(200);
    expect((keys.body as { items: { key: string; resourceId: string | null }[] }).items).toEqual([
      expect.objectContaining({ key: "scan-1", status: 202, resourceId: null }),
    ]);
    expect((await log.send({ method: "GET", path: `/idempotency-keys?prefix=${"p".repeat(256)}`, token, intent: "invalid" })).status).toBe(
      400,
    );
    expect((await log.send({ method: "GET", path: "/openapi.json" })).status).toBe(200);
  });

  it("events, deliveries, redelivery and the webhook signing secret", async () => {
    // Two alerts that cross at once (a budget of one cent): one with a webhook (to a closed port), one without.
    const hooked = field(
      await log.send({ method: "POST", path: "/alerts", token, json: alertBody({ amount: 0.01, webhookUrl: "http://127.0.0.1:9/hook" }) }),
      "id",
    );
    const quiet = field(
      await log.send({ method: "POST", path: "/alerts", token, json: alertBody({ amount: 0.01, recipients: [] }) }),
      "id",
    );
    // Spend, then a clock step: the step evaluates synchronously, so the events exist when it returns.
    const control = async (path: string, body: unknown) => {
      const response = await fetch(`${sandbox.origin}/sandbox/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
    };
    await control("/spend", { accountId: "111122223333", service: "Amazon EC2", amount: 100 });
    await control("/clock", { advance: "PT1S" });
    const listed = await log.send({ method: "GET", path: "/events?limit=50&type=budget_alert.threshold_crossed", token });
    expect(listed.status).toBe(200);
    const events = (listed.body as { items: { id: string; data: { alertId: string } }[] }).items;
    const withHook = events.find((e) => e.data.alertId === hooked)!.id;
    const withoutHook = events.find((e) => e.data.alertId === quiet)!.id;
    expect((await log.send({ method: "GET", path: "/events?limit=1", token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: "/events?type=nope", token, intent: "invalid" })).status).toBe(400);
    expect((await log.send({ method: "GET", path: `/events/${withHook}`, token })).status).toBe(200);
    expect((await log.send({ method: "GET", path: `/events/${withHook}/deliveries`, token })).status).toBe(200);
    expect((await log.send({ method: "POST", path: `/events/${withHook}/redeliver`, token })).status).toBe(202);
    expect((await log.send({ method: "POST", path: `/events/${withoutHook}/redeliver`, token })).status).toBe(409);
    expect((await log.send({ method: "GET", path: "/webhooks/signing-secret", token })).status).toBe(200);
    expect((await log.send({ method: "POST", path: "/webhooks/signing-secret/rotate", token })).status).toBe(200);
  });

  it("the errors every API operation can cause: 401, 403, 404, 400, 413, 415, 429, 431, 503; and every operation's 421", async () => {
    const lacking: Record<string, string> = {
      read: await sandbox.token("run"),
      write: await sandbox.token("read"),
      run: await sandbox.token("read,write"),
    };
    // The signing secret is a secret: reading it needs `write`. A dry-run changes nothing: `read`.
    const scopeOf = (op: Operation) =>
      op.path.startsWith("/webhooks/")
        ? "write"
        : op.method === "GET" || op.path.endsWith(":validate")
          ? "read"
          : op.path === "/scans"
            ? "run"
            : "write";
    const big = "x".repeat(1024 * 1024 + 1);
    for (const op of apiOperations()) {
      const path = op.path.startsWith("/cost/") ? `${op.path}?${COST_WINDOW}` : pathOf(op);
      expect((await log.send({ method: op.method, path, intent: "unchecked" })).status).toBe(401);
      expect((await log.send({ method: op.method, path, token: "not-a-token", intent: "unchecked" })).status).toBe(401);
      expect((await log.send({ method: op.method, path, token: lacking[scopeOf(op)], intent: "unchecked" })).status).toBe(403);
      if (op.path.includes("{"))
        expect((await log.send({ method: op.method, path, token, json: VALID_BODY[op.operationId]?.() })).status).toBe(404);
      if (readsBody(op)) {
        // Prism answers malformed JSON itself and cannot carry a body over its own limit: straight to the service.
        expect(
          (await log.send({ method: op.method, path, token, raw: "{", headers: { "content-type": "application/json" }, via: "direct" }))
            .status,
        ).toBe(400);
        expect(
          (await log.send({ method: op.method, path, token, raw: big, headers: { "content-type": "application/json" }, via: "direct" }))
            .status,
        ).toBe(413);
        expect(
          (
            await log.send({
              method: op.method,
              path,
              token,
              raw: "name=x",
              headers: { "content-type": "text/plain" },
              intent: "unchecked",
            })
          ).status,
        ).toBe(415);
      }
    }
    // 429: a sandbox allowing one request a minute per token; the count is kept per Authorization header.
    const limitedTargets: Targets = { prism: new Map(), direct: new Map([[API, limited.baseUrl]]) };
    await log.send({ method: "GET", path: "/filters", token: "spent", via: "direct" }, limitedTargets);
    for (const op of apiOperations())
      expect((await log.send({ method: op.method, path: pathOf(op), token: "spent", via: "direct" }, limitedTargets)).status).toBe(429);
    // 503: a sandbox whose every API request gets the injected fault.
    const unavailableTargets: Targets = { prism: new Map(), direct: new Map([[API, unavailable.baseUrl]]) };
    for (const op of apiOperations())
      expect((await log.send({ method: op.method, path: pathOf(op), token, via: "direct" }, unavailableTargets)).status).toBe(503);
    // What the server answers before any operation's code (api/src/contract/server-answers.ts), for every operation
    // of the document: 431 from Node's parser (Prism's own server would answer it first), 421 from the Host check.
    for (const op of contract.operations) {
      expect(
        (await log.send({ method: op.method, path: pathOf(op), token, headers: { "x-padding": "p".repeat(20_000) }, via: "direct" }))
          .status,
      ).toBe(431);
      expect((await log.send({ method: op.method, path: pathOf(op), token, host: "attacker.example", via: "direct" })).status).toBe(421);
    }
  });

  it("the authorization server: token, discovery, registration, authorization, revocation, introspection", async () => {
    expect((await log.send({ method: "GET", path: "/.well-known/oauth-authorization-server" })).status).toBe(200);
    const registered = await log.send({
      method: "POST",
      path: "/oauth/register",
      json: { redirect_uris: [REDIRECT_URI], client_name: "conformance" },
    });
    expect(registered.status).toBe(201);
    const invalidRegistrations = [
      { redirect_uris: [] },
      { redirect_uris: [`${REDIRECT_URI}#frag`] },
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `${REDIRECT_URI}${i}`) },
      { redirect_uris: [REDIRECT_URI], client_name: "  " },
      { redirect_uris: [REDIRECT_URI], scope: "read admin" },
    ];
    for (const json of invalidRegistrations)
      expect((await log.send({ method: "POST", path: "/oauth/register", json, intent: "invalid" })).status).toBe(400);
    expect(
      (await log.send({ method: "POST", path: "/oauth/register", json: { redirect_uris: [REDIRECT_URI], scope: " read  write " } })).status,
    ).toBe(201);
    expect((await log.send({ method: "POST", path: "/oauth/register", json: { redirect_uris: ["http://example.com/cb"] } })).status).toBe(
      400,
    );

    const { client_id, client_secret } = await sandbox.client("read,write");
    const credentials = { client_id, client_secret };
    const issued = await log.send({ method: "POST", path: "/oauth/token", ...form({ grant_type: "client_credentials", ...credentials }) });
    expect(issued.status).toBe(200);
    const accessToken = field(issued, "access_token");
    expect(
      (
        await log.send({
          method: "POST",
          path: "/oauth/token",
          ...form({ grant_type: "client_credentials", client_id, client_secret: "wrong" }),
        })
      ).status,
    ).toBe(401);
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret)}`).toString("base64")}`;
    const viaBasic = form({ grant_type: "client_credentials", scope: "read" });
    expect(
      (await log.send({ method: "POST", path: "/oauth/token", ...viaBasic, headers: { ...viaBasic.headers, authorization: basic } }))
        .status,
    ).toBe(200);
    expect(
      (await log.send({ method: "POST", path: "/oauth/token", ...form({ grant_type: "password", ...credentials }), intent: "invalid" }))
        .status,
    ).toBe(400);
    expect(
      (
        await log.send({
          method: "POST",
          path: "/oauth/token",
          ...form({
            grant_type: "authorization_code",
            code: "nope",
            redirect_uri: REDIRECT_URI,
            code_verifier: "v".repeat(43),
            ...credentials,
          }),
        })
      ).status,
    ).toBe(400);

    expect((await log.send({ method: "POST", path: "/oauth/introspect", ...form({ token: accessToken, ...credentials }) })).status).toBe(
      200,
    );
    expect(
      (await log.send({ method: "POST", path: "/oauth/introspect", ...form({ token: accessToken, client_id, client_secret: "wrong" }) }))
        .status,
    ).toBe(401);
    expect((await log.send({ method: "POST", path: "/oauth/introspect", ...form(credentials), intent: "invalid" })).status).toBe(400);
    expect((await log.send({ method: "POST", path: "/oauth/revoke", ...form({ token: accessToken }) })).status).toBe(401);
    expect((await log.send({ method: "POST", path: "/oauth/revoke", ...form(credentials), intent: "invalid" })).status).toBe(400);
    expect((await log.send({ method: "POST", path: "/oauth/revoke", ...form({ token: accessToken, ...credentials }) })).status).toBe(200);

    // Open registration is limited per address (CLIENT_REGISTRATIONS_PER_MINUTE): it answers 429 within the
    // limit's number of further registrations (twice that, should a window end meanwhile).
    let refused: Reply | undefined;
    for (let i = 0; i <= 2 * CLIENT_REGISTRATIONS_PER_MINUTE && refused === undefined; i++) {
      const r = await log.send({ method: "POST", path: "/oauth/register", json: { redirect_uris: [REDIRECT_URI] } });
      if (r.status !== 201) refused = r;
    }
    expect([refused?.status, refused?.headers.get("retry-after")]).toEqual([429, expect.stringMatching(/^\d+$/)]);

    const publicClient = field(registered, "client_id");
    const authorize = (extra: Record<string, string> = {}) =>
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: publicClient, redirect_uri: REDIRECT_URI, scope: "read", state: "s1", code_challenge: CODE_CHALLENGE, code_challenge_method: "S256", ...extra })}`;
    // Prism follows redirects itself, so the 302s go to the service directly.
    expect((await log.send({ method: "GET", path: authorize(), via: "direct" })).status).toBe(302);
    // An erroneous request from a signed-out browser gets an error page, never a redirect to a client's URI
    // (RFC 9700 §4.11.2); a signed-in user's is redirected back with the error (RFC 6749 §4.1.2.1).
    expect((await log.send({ method: "GET", path: authorize({ response_type: "token" }) })).status).toBe(400);
    expect((await log.send({ method: "GET", path: authorize({ client_id: "unknown" }) })).status).toBe(400);
    const cookies = await signedInCookies(sandbox.origin);
    const signedIn = { cookie: cookies.join("; ") };
    expect((await log.send({ method: "GET", path: authorize({ response_type: "token" }), headers: signedIn, via: "direct" })).status).toBe(
      302,
    );
    const consent = await log.send({ method: "GET", path: authorize(), headers: { cookie: cookies.join("; ") } });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('action="/oauth/authorize"');
    // Without its CSRF cookie (cleared, expired) the consent page sets a new one.
    const withoutCsrf = cookies.filter((c) => !c.startsWith("cc_csrf_")).join("; ");
    expect((await log.send({ method: "GET", path: authorize(), headers: { cookie: withoutCsrf } })).headers.get("set-cookie")).toMatch(
      /^cc_csrf_/,
    );
  });

  it("has nothing to complain about, and exercised every operation, status and header of the document", () => {
    const findings = {
      failures: log.failures(),
      operationsWithoutSuccess: log.operationsWithoutSuccess(),
      statusesNeverSeen: log.statusesNeverSeen(),
      headersNeverSent: log.headersNeverSent(),
    };
    expect(findings).toEqual({ failures: [], operationsWithoutSuccess: [], statusesNeverSeen: [], headersNeverSent: [] });
  });
});

/** The cookies (`name=value`) of a browser signed in as the demo user (the consent page needs a session). */
async function signedInCookies(origin: string): Promise<string[]> {
  const agent = new UserAgent(origin);
  const page = await agent.get("/portal/sign-in");
  const signedIn = await agent.post("/portal/sign-in", { ...hiddenFields(await page.text(), "/portal/sign-in"), ...DEMO_USER });
  if (signedIn.status !== 303) throw new Error(`sign-in failed with ${signedIn.status}`);
  return [...agent.setCookieHeaders.values()].map((h) => h.split(";")[0]!);
}
