import type { Problem } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call, expectProblem as expectProblemResponse, fields, type Reply } from "./api-client";

/** A problem response whose `requestId` is the one in the `X-Request-Id` header. */
function expectProblem(reply: Reply, status: number): Problem {
  const problem = expectProblemResponse(reply, status);
  expect(problem.requestId).toBe(reply.headers.get("x-request-id"));
  return problem;
}

describe("authentication and authorization (RFC 6750)", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.dispose());

  it("answers a request without a token with a bare Bearer challenge (RFC 6750 §3.1)", async () => {
    const reply = await call(sandbox, "GET", "/groups");
    expectProblem(reply, 401);
    expect(reply.headers.get("www-authenticate")).toBe('Bearer realm="cloudcost"');
  });

  it("treats another authentication scheme like no token", async () => {
    const reply = await call(sandbox, "GET", "/groups", { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expectProblem(reply, 401);
    expect(reply.headers.get("www-authenticate")).toBe('Bearer realm="cloudcost"');
  });

  it.each([
    ["an unknown token", "ccpat_notarealtoken"],
    ["a malformed token", "not a token!"],
  ])("rejects %s as invalid_token, unknown", async (_, token) => {
    const reply = await call(sandbox, "GET", "/groups", { headers: { authorization: `Bearer ${token}` } });
    expectProblem(reply, 401);
    expect(reply.headers.get("www-authenticate")).toBe(
      'Bearer realm="cloudcost", error="invalid_token", error_description="The access token is unknown."',
    );
  });

  it("rejects an expired token and says it expired", async () => {
    const { token } = await sandbox.cliJson<{ token: string }>([
      "token",
      "create",
      "--org",
      "demo",
      "--scopes",
      "read",
      "--expires-in",
      "1",
      "--json",
    ]);
    expect((await call(sandbox, "GET", "/groups", { token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const reply = await call(sandbox, "GET", "/groups", { token });
    expect(expectProblem(reply, 401).detail).toMatch(/expired/);
    expect(reply.headers.get("www-authenticate")).toContain('error="invalid_token", error_description="The access token has expired."');
  });

  it("rejects a revoked token and says it was revoked", async () => {
    const token = await sandbox.token("read");
    expect((await call(sandbox, "GET", "/groups", { token })).status).toBe(200);
    expect((await sandbox.cli(["token", "revoke", "--org", "demo", token])).code).toBe(0);
    const reply = await call(sandbox, "GET", "/groups", { token });
    expect(expectProblem(reply, 401).detail).toMatch(/revoked/);
    expect(reply.headers.get("www-authenticate")).toContain('error_description="The access token has been revoked."');
  });

  it.each([
    ["read", "POST", "/groups", "write"],
    ["read", "POST", "/insights/100001/acknowledge", "write"],
    ["read,write", "POST", "/scans", "run"],
    ["write", "GET", "/groups", "read"],
  ])("with scopes %s, %s %s is a 403 naming the %s scope and changes nothing", async (scopes, method, path, needed) => {
    const token = await sandbox.token(scopes);
    const admin = await sandbox.token();
    const before = (await call(sandbox, "GET", "/groups", { token: admin })).text;
    const reply = await call(sandbox, method, path, {
      token,
      json: method === "POST" && path === "/groups" ? { name: "Forbidden" } : undefined,
    });
    expect(expectProblem(reply, 403).detail).toContain(`"${needed}"`);
    expect(reply.headers.get("www-authenticate")).toContain(`error="insufficient_scope", scope="${needed}"`);
    expect((await call(sandbox, "GET", "/groups", { token: admin })).text).toBe(before);
  });

  it("intersects a token's scopes with its organization's permissions", async () => {
    expect((await sandbox.cli(["org", "create", "readers", "--permissions", "read"])).code).toBe(0);
    const { token } = await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "readers", "--scopes", "read,write", "--json"]);
    expect((await call(sandbox, "GET", "/groups", { token })).status).toBe(200);
    expectProblem(await call(sandbox, "POST", "/groups", { token, json: { name: "Nope" } }), 403);
  });

  describe("another organization", () => {
    let demo: string;
    let other: string;
    let demoGroup: string;
    beforeAll(async () => {
      demo = await sandbox.token();
      expect((await sandbox.cli(["org", "create", "acme"])).code).toBe(0);
      expect((await sandbox.cli(["account", "add", "--org", "acme", "--provider", "aws", "--id", "999988887777"])).code).toBe(0);
      other = (await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "acme", "--scopes", "read,write,run", "--json"]))
        .token;
      demoGroup = String(fields(await call(sandbox, "POST", "/groups", { token: demo, json: { name: "Demo only" } })).id);
    });

    it.each([
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["GET", "/members"],
      ["PUT", "/members"],
    ])("%s on its group%s is a 404", async (method, suffix) => {
      const json = method === "PATCH" ? { name: "Stolen" } : method === "PUT" ? { members: [] } : undefined;
      expectProblem(await call(sandbox, method, `/groups/${demoGroup}${suffix}`, { token: other, json }), 404);
      expect(fields(await call(sandbox, "GET", `/groups/${demoGroup}`, { token: demo })).name).toBe("Demo only");
    });

    it("sees none of its groups, accounts or findings", async () => {
      const groups = fields(await call(sandbox, "GET", "/groups", { token: other })).items as { id: string }[];
      expect(groups).toEqual([]);
      const accounts = fields(await call(sandbox, "GET", "/accounts", { token: other })).items as { accountId: string }[];
      expect(accounts.map((a) => a.accountId)).toEqual(["999988887777"]);
      const demoInsight = (fields(await call(sandbox, "GET", "/insights", { token: demo })).items as { id: string }[])[0]!.id;
      expectProblem(await call(sandbox, "POST", `/insights/${demoInsight}/acknowledge`, { token: other }), 404);
    });

    it("cannot use its group in a cost read or an alert", async () => {
      expectProblem(await call(sandbox, "GET", `/cost/summary?from=2026-01-01&to=2026-01-31&groupId=${demoGroup}`, { token: other }), 404);
      const alert = {
        name: "x",
        amount: 1,
        currency: "USD",
        period: "monthly",
        thresholds: [{ percent: 50, basis: "actual" }],
        groupId: demoGroup,
      };
      const problem = expectProblem(await call(sandbox, "POST", "/alerts", { token: other, json: alert }), 422);
      expect(problem.errors).toEqual([expect.objectContaining({ path: "body.groupId", code: "unknown_group" })]);
    });
  });
});
