import { routes, type Route } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, alertBody, call, fields, reportBody } from "./api-client";
import { daysFromToday } from "./dates";

/** A valid request for one operation; created objects come from the sandbox itself. */
type Fixture = () => Promise<{ path: string; json?: unknown }>;

describe("every route of the contract table", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const create = async (path: string, json: unknown): Promise<string> => {
    const r = await call(sandbox, "POST", path, { token, json });
    if (r.status !== 201) throw new Error(`setup ${path}: ${r.status} ${r.text}`);
    return String(fields(r).id);
  };
  const firstFinding = async (list: string): Promise<string> => {
    const items = fields(await call(sandbox, "GET", `/${list}`, { token })).items as { id: string }[];
    return items[0]!.id;
  };
  const window = `from=${daysFromToday(-10)}&to=${daysFromToday(5)}`;
  let n = 0;
  const unique = () => `Route group ${++n}`;
  /** An event with a webhook: an alert with a one-cent budget, then a clock step (which evaluates before it answers). */
  let crossed: Promise<string> | undefined;
  const webhookEvent = (): Promise<string> =>
    (crossed ??= (async () => {
      const alertId = await create("/alerts", alertBody({ amount: 0.01, webhookUrl: "http://127.0.0.1:9/hook" }));
      const step = await fetch(`${sandbox.origin}/sandbox/v1/clock`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ advance: "PT1S" }),
      });
      if (step.status !== 200) throw new Error(`clock step: ${step.status}`);
      const items = fields(await call(sandbox, "GET", "/events?limit=200", { token })).items as {
        id: string;
        data: { alertId?: string };
      }[];
      return items.find((e) => e.data.alertId === alertId)!.id;
    })());

  const fixtures: Record<string, Fixture> = {
    getCostSummary: async () => ({ path: `/cost/summary?${window}` }),
    getCostByService: async () => ({ path: `/cost/services?${window}` }),
    getCostByDay: async () => ({ path: `/cost/daily?${window}` }),
    getCostForecast: async () => ({ path: `/cost/forecast?${window}` }),
    getCostComparison: async () => ({ path: `/cost/comparison?${window}` }),
    listInsights: async () => ({ path: "/insights" }),
    acknowledgeInsights: async () => ({ path: `/insights/${await firstFinding("insights")}/acknowledge` }),
    listWaste: async () => ({ path: "/waste" }),
    acknowledgeWaste: async () => ({ path: `/waste/${await firstFinding("waste")}/acknowledge` }),
    listRecommendations: async () => ({ path: "/recommendations" }),
    acknowledgeRecommendations: async () => ({ path: `/recommendations/${await firstFinding("recommendations")}/acknowledge` }),
    getOrganization: async () => ({ path: "/organization" }),
    listAccounts: async () => ({ path: "/accounts" }),
    getFilters: async () => ({ path: "/filters" }),
    listGroups: async () => ({ path: "/groups" }),
    createGroup: async () => ({ path: "/groups", json: { name: unique(), description: "made by the route test" } }),
    getGroup: async () => ({ path: `/groups/${await create("/groups", { name: unique() })}` }),
    updateGroup: async () => ({ path: `/groups/${await create("/groups", { name: unique() })}`, json: { description: "changed" } }),
    deleteGroup: async () => ({ path: `/groups/${await create("/groups", { name: unique() })}` }),
    validateGroup: async () => ({
      path: "/groups:validate",
      json: { name: unique(), members: [{ provider: "aws", accountId: DEMO_AWS[0] }] },
    }),
    listMembers: async () => ({ path: `/groups/${await create("/groups", { name: unique() })}/members` }),
    replaceMembers: async () => ({
      path: `/groups/${await create("/groups", { name: unique() })}/members`,
      json: { members: [{ provider: "aws", accountId: DEMO_AWS[0] }] },
    }),
    addMember: async () => ({
      path: `/groups/${await create("/groups", { name: unique() })}/members`,
      json: { provider: "aws", accountId: DEMO_AWS[1] },
    }),
    removeMember: async () => {
      const id = await create("/groups", { name: unique() });
      await call(sandbox, "POST", `/groups/${id}/members`, { token, json: { provider: "aws", accountId: DEMO_AWS[2] } });
      return { path: `/groups/${id}/members/aws/${DEMO_AWS[2]}` };
    },
    listAlerts: async () => ({ path: "/alerts" }),
    createAlert: async () => ({ path: "/alerts", json: alertBody() }),
    getAlert: async () => ({ path: `/alerts/${await create("/alerts", alertBody())}` }),
    replaceAlert: async () => ({ path: `/alerts/${await create("/alerts", alertBody())}`, json: alertBody({ amount: 7500 }) }),
    deleteAlert: async () => ({ path: `/alerts/${await create("/alerts", alertBody())}` }),
    validateAlert: async () => ({
      path: `/alerts:validate?alertId=${await create("/alerts", alertBody())}`,
      json: alertBody({ amount: 7500 }),
    }),
    listReports: async () => ({ path: "/reports" }),
    createReport: async () => ({ path: "/reports", json: reportBody() }),
    getReport: async () => ({ path: `/reports/${await create("/reports", reportBody())}` }),
    replaceReport: async () => ({ path: `/reports/${await create("/reports", reportBody())}`, json: reportBody({ format: "pdf" }) }),
    deleteReport: async () => ({ path: `/reports/${await create("/reports", reportBody())}` }),
    validateReport: async () => ({ path: "/reports:validate", json: reportBody() }),
    startScan: async () => ({ path: "/scans" }),
    listScans: async () => ({ path: "/scans" }),
    listEvents: async () => ({ path: "/events?type=budget_alert.threshold_crossed" }),
    listIdempotencyKeys: async () => ({ path: "/idempotency-keys?prefix=every-route" }),
    getEvent: async () => ({ path: `/events/${await webhookEvent()}` }),
    listDeliveries: async () => ({ path: `/events/${await webhookEvent()}/deliveries` }),
    redeliverEvent: async () => ({ path: `/events/${await webhookEvent()}/redeliver` }),
    getWebhookSigningSecret: async () => ({ path: "/webhooks/signing-secret" }),
    rotateWebhookSigningSecret: async () => ({ path: "/webhooks/signing-secret/rotate" }),
    getScan: async () => {
      const r = await call(sandbox, "POST", "/scans", { token });
      return { path: `/scans/${String(fields(r).runId)}` };
    },
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  it("has a request for every operation of the table (and none for operations it lacks)", () => {
    expect(Object.keys(fixtures).sort()).toEqual(routes.map((r) => r.operationId).sort());
  });

  it.each(routes.map((r) => [r.operationId, r] as [string, Route]))(
    "%s answers its documented status and response schema",
    async (operationId, route) => {
      const fixture = fixtures[operationId];
      if (!fixture) throw new Error(`no request for ${operationId}`);
      const request = await fixture();
      const reply = await call(sandbox, route.method, request.path, { token, json: request.json });
      expect({ status: reply.status, body: reply.body }).toMatchObject({ status: route.status });
      if (route.response === null) {
        expect(reply.text).toBe("");
      } else {
        expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
        const parsed = route.response.safeParse(reply.body);
        expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
      }
      if (route.etag && route.response !== null) expect(reply.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(reply.headers.get("x-request-id")).toMatch(/^req_/);
    },
  );
});
