import { randomUUID } from "node:crypto";
import type {
  AlertInput,
  BudgetAlert,
  CloudGroup,
  ConnectedAccount,
  Finding,
  Member,
  ReportInput,
  Route,
  ScanRun,
  ScheduledReport,
} from "@cloudcost/api";
import { send, WireRequest } from "./http";

/** An organization as seen through the API with a token that has every scope. */
export interface OrgApi {
  baseUrl: string;
  /** A token with read, write and run. */
  token: string;
  /** A marker put into every name this test creates in the organization, to search responses for leaks. */
  marker: string;
}

async function post<T>(org: OrgApi, path: string, body?: unknown): Promise<T> {
  const res = await send(org.baseUrl, { method: "POST", path, body }, { token: org.token });
  if (res.status >= 300) throw new Error(`fixture POST ${path} answered ${res.status}: ${res.text}`);
  return res.json as T;
}
async function get<T>(org: OrgApi, path: string): Promise<T> {
  const res = await send(org.baseUrl, { method: "GET", path }, { token: org.token });
  if (res.status !== 200) throw new Error(`fixture GET ${path} answered ${res.status}: ${res.text}`);
  return res.json as T;
}

const unique = (org: OrgApi, what: string) => `${org.marker} ${what} ${randomUUID().slice(0, 8)}`;

export function alertInput(org: OrgApi, overrides: Partial<AlertInput> = {}): AlertInput {
  return {
    name: unique(org, "alert"),
    amount: 1000,
    currency: "USD",
    period: "monthly",
    thresholds: [{ percent: 80, basis: "actual" }],
    ...overrides,
  };
}
export function reportInput(org: OrgApi, overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    name: unique(org, "report"),
    report: "summary",
    schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
    recipients: ["finops@example.com"],
    ...overrides,
  };
}

/** Creates the objects a request needs, fresh each time, so destructive routes can be called repeatedly. */
export const fixtures = {
  group: (org: OrgApi): Promise<CloudGroup> =>
    post(org, "/groups", { name: unique(org, "group"), description: `${org.marker} description` }),
  alert: (org: OrgApi): Promise<BudgetAlert> => post(org, "/alerts", alertInput(org)),
  report: (org: OrgApi): Promise<ScheduledReport> => post(org, "/reports", reportInput(org)),
  scan: (org: OrgApi): Promise<ScanRun> => post(org, "/scans"),
  account: async (org: OrgApi): Promise<Member> => {
    const accounts = await get<{ items: ConnectedAccount[] }>(org, "/accounts");
    const a = accounts.items[0];
    if (!a) throw new Error("the organization has no connected account to use as a group member");
    return { provider: a.provider, accountId: a.accountId } as Member;
  },
  groupWithMember: async (org: OrgApi): Promise<{ group: CloudGroup; member: Member }> => {
    const [group, member] = await Promise.all([fixtures.group(org), fixtures.account(org)]);
    await post(org, `/groups/${group.id}/members`, member);
    return { group, member };
  },
  /** An event with a webhook: an alert with a one-cent budget, then a clock step (which evaluates before it answers). */
  event: async (org: OrgApi): Promise<string> => {
    const alert = await post<BudgetAlert>(org, "/alerts", alertInput(org, { amount: 0.01, webhookUrl: "http://127.0.0.1:9/hook" }));
    const step = await send(
      `${new URL(org.baseUrl).origin}/sandbox/v1`,
      { method: "POST", path: "/clock", body: { advance: "PT1S" } },
      { token: org.token },
    );
    if (step.status !== 200) throw new Error(`fixture clock step answered ${step.status}: ${step.text}`);
    const events = await get<{ items: { id: string; data: { alertId?: string } }[] }>(
      org,
      "/events?type=budget_alert.threshold_crossed&limit=200",
    );
    const event = events.items.find((e) => e.data.alertId === alert.id);
    if (!event) throw new Error(`no event for the fixture alert ${alert.id}`);
    return event.id;
  },
  finding: async (org: OrgApi, kind: "insights" | "waste" | "recommendations"): Promise<Finding> => {
    const list = await get<{ items: Finding[] }>(org, `/${kind}`);
    const f = list.items[0];
    if (!f) throw new Error(`the organization has no open ${kind} to acknowledge`);
    return f;
  },
};

const COST_QUERY = "?from=2026-10-01&to=2026-10-31";
const cost = (path: string) => async (): Promise<WireRequest> => ({ method: "GET", path: `${path}${COST_QUERY}` });
const list = (path: string) => async (): Promise<WireRequest> => ({ method: "GET", path });

type Builder = (org: OrgApi) => Promise<WireRequest>;

/**
 * A valid request for every operation of the route table (keyed by `operationId`): sent with the right
 * scope it must succeed. A route without an entry here makes the matrix test fail, so new routes get covered.
 */
export const validRequests: Record<string, Builder> = {
  getCostSummary: cost("/cost/summary"),
  getCostByService: cost("/cost/services"),
  getCostByDay: cost("/cost/daily"),
  getCostForecast: cost("/cost/forecast"),
  getCostComparison: cost("/cost/comparison"),
  listInsights: list("/insights"),
  listWaste: list("/waste"),
  listRecommendations: list("/recommendations"),
  acknowledgeInsights: async (org) => ({ method: "POST", path: `/insights/${(await fixtures.finding(org, "insights")).id}/acknowledge` }),
  acknowledgeWaste: async (org) => ({ method: "POST", path: `/waste/${(await fixtures.finding(org, "waste")).id}/acknowledge` }),
  acknowledgeRecommendations: async (org) => ({
    method: "POST",
    path: `/recommendations/${(await fixtures.finding(org, "recommendations")).id}/acknowledge`,
  }),
  getOrganization: list("/organization"),
  listAccounts: list("/accounts"),
  getFilters: list("/filters"),
  listGroups: list("/groups"),
  createGroup: async (org) => ({ method: "POST", path: "/groups", body: { name: unique(org, "group") } }),
  validateGroup: async (org) => ({ method: "POST", path: "/groups:validate", body: { name: unique(org, "group") } }),
  getGroup: async (org) => ({ method: "GET", path: `/groups/${(await fixtures.group(org)).id}` }),
  updateGroup: async (org) => ({ method: "PATCH", path: `/groups/${(await fixtures.group(org)).id}`, body: { description: "changed" } }),
  deleteGroup: async (org) => ({ method: "DELETE", path: `/groups/${(await fixtures.group(org)).id}` }),
  listMembers: async (org) => ({ method: "GET", path: `/groups/${(await fixtures.group(org)).id}/members` }),
  replaceMembers: async (org) => {
    const [group, member] = await Promise.all([fixtures.group(org), fixtures.account(org)]);
    return { method: "PUT", path: `/groups/${group.id}/members`, body: { members: [member] } };
  },
  addMember: async (org) => {
    const [group, member] = await Promise.all([fixtures.group(org), fixtures.account(org)]);
    return { method: "POST", path: `/groups/${group.id}/members`, body: member };
  },
  removeMember: async (org) => {
    const { group, member } = await fixtures.groupWithMember(org);
    return { method: "DELETE", path: `/groups/${group.id}/members/${member.provider}/${member.accountId}` };
  },
  listAlerts: list("/alerts"),
  createAlert: async (org) => ({ method: "POST", path: "/alerts", body: alertInput(org) }),
  validateAlert: async (org) => ({ method: "POST", path: "/alerts:validate", body: alertInput(org) }),
  getAlert: async (org) => ({ method: "GET", path: `/alerts/${(await fixtures.alert(org)).id}` }),
  replaceAlert: async (org) => ({
    method: "PUT",
    path: `/alerts/${(await fixtures.alert(org)).id}`,
    body: alertInput(org, { amount: 2000 }),
  }),
  deleteAlert: async (org) => ({ method: "DELETE", path: `/alerts/${(await fixtures.alert(org)).id}` }),
  listReports: list("/reports"),
  createReport: async (org) => ({ method: "POST", path: "/reports", body: reportInput(org) }),
  validateReport: async (org) => ({ method: "POST", path: "/reports:validate", body: reportInput(org) }),
  getReport: async (org) => ({ method: "GET", path: `/reports/${(await fixtures.report(org)).id}` }),
  replaceReport: async (org) => ({
    method: "PUT",
    path: `/reports/${(await fixtures.report(org)).id}`,
    body: reportInput(org, { format: "pdf" }),
  }),
  deleteReport: async (org) => ({ method: "DELETE", path: `/reports/${(await fixtures.report(org)).id}` }),
  startScan: async () => ({ method: "POST", path: "/scans" }),
  listScans: list("/scans"),
  getScan: async (org) => ({ method: "GET", path: `/scans/${(await fixtures.scan(org)).runId}` }),
  listEvents: list("/events"),
  getEvent: async (org) => ({ method: "GET", path: `/events/${await fixtures.event(org)}` }),
  listDeliveries: async (org) => ({ method: "GET", path: `/events/${await fixtures.event(org)}/deliveries` }),
  redeliverEvent: async (org) => ({ method: "POST", path: `/events/${await fixtures.event(org)}/redeliver` }),
  getWebhookSigningSecret: list("/webhooks/signing-secret"),
  rotateWebhookSigningSecret: async () => ({ method: "POST", path: "/webhooks/signing-secret/rotate" }),
  listIdempotencyKeys: list("/idempotency-keys"),
};

export function requestBuilder(route: Route): Builder {
  const b = validRequests[route.operationId];
  if (!b) throw new Error(`no request for ${route.operationId} (${route.method} ${route.path}): add one to validRequests`);
  return b;
}

/** The path a request must address for `route`: its template with every `{param}` matched loosely. */
export function matchesRoute(route: Route, req: WireRequest): boolean {
  const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, "[^/?]+")}(\\?.*)?$`);
  return req.method === route.method && pattern.test(req.path);
}
