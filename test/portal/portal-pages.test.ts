import type { CloudGroup } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { signedInAgent } from "../oauth/support/demo-user";
import { apiStatus } from "../oauth/support/oauth-client";
import { hiddenFields, type UserAgent } from "../oauth/support/user-agent";

/** The portal's pages over plain HTTP (no JavaScript needed): same data as the API, secrets shown once, CSRF on every form. */
describe("portal pages", () => {
  let sb: RunningSandbox;
  let agent: UserAgent;
  let token: string;

  beforeAll(async () => {
    sb = await startSandbox();
    agent = await signedInAgent(sb.origin);
    token = await sb.token();
  });
  afterAll(() => sb?.dispose());

  const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${sb.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
  };
  const page = async (path: string) => (await agent.get(path)).text();
  const submit = async (pagePath: string, action: string, fields: Record<string, string | string[]>) =>
    agent.post(action, { ...hiddenFields(await page(pagePath), action), ...fields });

  test("a group created through the API is in the global filter and the group list at once (spec rule 1)", async () => {
    const created = await api<CloudGroup>("POST", "/groups", { name: "From the API" });
    expect(created.status).toBe(201);
    const html = await page("/portal/groups");
    expect(html).toContain(`<option value="${created.body.id}">From the API</option>`);
    expect(html).toContain(`<code>${created.body.id}</code>`);
  });

  test("a group created in the portal is, through the API, like any other with source portal", async () => {
    const response = await submit("/portal/groups", "/portal/groups", { name: "From the portal", description: "made by hand" });
    expect(response.status).toBe(303);
    const groups = await api<{ items: CloudGroup[] }>("GET", "/groups");
    const portalMade = groups.body.items.find((g) => g.name === "From the portal")!;
    const apiMade = groups.body.items.find((g) => g.name === "From the API")!;
    expect(portalMade).toMatchObject({ source: "portal", description: "made by hand", members: [] });
    expect(Object.keys(portalMade).sort()).toEqual(Object.keys(apiMade).sort());
    const renamed = await api<CloudGroup>("PATCH", `/groups/${portalMade.id}`, { description: "changed by the API" });
    expect(renamed.status).toBe(200);
  });

  test("an invalid or duplicate group name is shown as an error and creates nothing", async () => {
    const before = (await api<{ items: CloudGroup[] }>("GET", "/groups")).body.items.length;
    const duplicate = await submit("/portal/groups", "/portal/groups", { name: "from the api" });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain('role="alert"');
    const empty = await submit("/portal/groups", "/portal/groups", { name: "   " });
    expect(empty.status).toBe(400);
    expect((await api<{ items: CloudGroup[] }>("GET", "/groups")).body.items.length).toBe(before);
  });

  test("text is escaped, never interpreted as markup", async () => {
    await api("POST", "/groups", { name: "<script>alert(1)</script>" });
    const html = await page("/portal/groups");
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  test("budget alerts show current spend against budget, and the global filter narrows them to a group", async () => {
    const group = await api<CloudGroup>("POST", "/groups", { name: "Alerted" });
    const alert = { amount: 1000, currency: "USD", period: "monthly", thresholds: [{ percent: 80, basis: "actual" }] };
    expect((await api("POST", "/alerts", { ...alert, name: "Group budget", groupId: group.body.id })).status).toBe(201);
    expect((await api("POST", "/alerts", { ...alert, name: "Org budget" })).status).toBe(201);
    const all = await page("/portal/alerts");
    expect(all).toContain("Group budget");
    expect(all).toContain("Org budget");
    expect(all).toMatch(/\$1,000\.00/);
    expect(all).toMatch(/Spend so far \$[\d,.]+ \(\d+% of the \$1,000\.00 budget\), forecast \$[\d,.]+ \(\d+%\); thresholds 80% actual\./);
    const filtered = await page(`/portal/alerts?group=${group.body.id}`);
    expect(filtered).toContain("Group budget");
    expect(filtered).not.toContain("Org budget");
    expect(filtered).toContain(`<option value="${group.body.id}" selected>Alerted</option>`);
  });

  test("scheduled reports are listed with their schedule", async () => {
    const report = {
      name: "Weekly summary",
      report: "summary",
      schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
      recipients: ["finops@example.com"],
    };
    expect((await api("POST", "/reports", report)).status).toBe(201);
    const html = await page("/portal/reports");
    expect(html).toContain("Weekly summary");
    expect(html).toContain("weekly on monday at 08:00 Europe/Berlin");
  });

  test("an API token made on API Access is shown once, works, and is revoked from the page", async () => {
    const response = await submit("/portal/api-access", "/portal/api-access/tokens", { label: "laptop script", scopes: ["read"] });
    expect(response.status).toBe(201);
    const shown = /data-secret="Token">([^<]+)</.exec(await response.text())![1]!;
    expect(await apiStatus(sb.baseUrl, shown)).toBe(200);
    const later = await page("/portal/api-access");
    expect(later).not.toContain(shown);
    expect(later).toContain("laptop script");
    const ref = /name="ref" value="([0-9a-f]{16})"/.exec(later.slice(later.indexOf("laptop script")))![1]!;
    expect((await submit("/portal/api-access", "/portal/api-access/tokens/revoke", { ref })).status).toBe(303);
    expect(await apiStatus(sb.baseUrl, shown)).toBe(401);
  });

  test("an OAuth client's secret is shown once and never again", async () => {
    const response = await submit("/portal/api-access", "/portal/api-access/clients", { name: "nightly job", scopes: ["read", "run"] });
    expect(response.status).toBe(201);
    const html = await response.text();
    const secret = /data-secret="Client secret">([^<]+)</.exec(html)![1]!;
    const clientId = /data-secret="Client ID">([^<]+)</.exec(html)![1]!;
    expect(secret).toMatch(/^ccs_/);
    const later = await page("/portal/api-access");
    expect(later).toContain(clientId);
    expect(later).not.toContain(secret);
  });

  test("choosing no scope, or one the organization does not permit, is refused", async () => {
    const none = await submit("/portal/api-access", "/portal/api-access/clients", { name: "no scopes" });
    expect(none.status).toBe(400);
    const bogus = await submit("/portal/api-access", "/portal/api-access/clients", { name: "bogus", scopes: ["admin"] });
    expect(bogus.status).toBe(400);
    expect(await page("/portal/api-access")).not.toContain("no scopes");
  });

  test("a form posted without a body (CSRF token in a header) is a bad form, never a server error, and changes nothing", async () => {
    const before = (await api<{ items: CloudGroup[] }>("GET", "/groups")).body.items.length;
    const csrf = { "csrf-token": hiddenFields(await page("/portal/groups"), "/portal/groups")._csrf! };
    expect((await agent.postWithoutBody("/portal/groups", csrf)).status).toBe(400);
    expect((await agent.postWithoutBody("/portal/api-access/tokens", csrf)).status).toBe(400);
    expect((await agent.postWithoutBody("/portal/api-access/clients", csrf)).status).toBe(400);
    expect((await api<{ items: CloudGroup[] }>("GET", "/groups")).body.items.length).toBe(before);
  });

  test("forms without the CSRF token change nothing", async () => {
    const response = await agent.post("/portal/groups", { name: "csrf-less" });
    expect(response.status).toBe(403);
    expect((await api<{ items: CloudGroup[] }>("GET", "/groups")).body.items.map((g) => g.name)).not.toContain("csrf-less");
  });
});
