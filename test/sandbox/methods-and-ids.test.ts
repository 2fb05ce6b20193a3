import { API_BASE_PATH, Problem, routes } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { alertBody, reportBody } from "./api-client";
import { rawRequest, type RawReply } from "./raw-http";

/**
 * Issue 34 items 1–3, swept over every path and every `{id}` route: a known path with another method is a
 * 405 with `Allow` wherever it is (API, sandbox controls, OAuth and discovery, portal, `/`), whatever the
 * method and whether or not it sends a Content-Type; an unknown path is a 404; and a path ID of any length
 * gets the documented 404 naming the parameter (fastify's default cut-off answered a bare 414 past 100).
 * node:http, not fetch: fetch refuses TRACE and rewrites some methods.
 */

/** Methods a client may send (Node's parser knows them); QUERY and PROPFIND are ones fastify treats as carrying a body. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "QUERY", "PROPFIND", "SEARCH"];

/** Every path the sandbox serves, with the methods it documents there (HEAD wherever GET is). */
function knownPaths(): [string, string[]][] {
  const byPath = new Map<string, Set<string>>();
  const add = (path: string, method: string) => byPath.set(path, (byPath.get(path) ?? new Set()).add(method));
  const fill = (path: string) => path.replace(/\{[^}]+\}/g, "x");
  for (const r of routes) add(`${API_BASE_PATH}${fill(r.path)}`, r.method);
  add(`${API_BASE_PATH}/openapi.json`, "GET");
  for (const [method, path] of [
    ["GET", "/clock"],
    ["POST", "/clock"],
    ["POST", "/spend"],
    ["GET", "/outbox"],
    ["DELETE", "/outbox"],
    ["GET", "/outbox/x/attachments/0"],
  ] as const)
    add(`/sandbox/v1${path}`, method);
  // The six OAuth and discovery paths (sandbox/OAUTH.md).
  for (const [method, path] of [
    ["GET", "/oauth/authorize"],
    ["POST", "/oauth/authorize"],
    ["POST", "/oauth/token"],
    ["POST", "/oauth/register"],
    ["POST", "/oauth/revoke"],
    ["POST", "/oauth/introspect"],
    ["GET", "/.well-known/oauth-authorization-server"],
  ] as const)
    add(path, method);
  for (const [method, path] of [
    ["GET", "/"],
    ["GET", "/favicon.ico"],
    ["GET", "/portal"],
    ["GET", "/portal/sign-in"],
    ["POST", "/portal/sign-in"],
    ["GET", "/portal/groups"],
    ["POST", "/portal/groups"],
  ] as const)
    add(path, method);
  return [...byPath].map(([path, methods]) => {
    const allowed = [...methods];
    if (methods.has("GET")) allowed.push("HEAD");
    return [path, allowed];
  });
}

describe("405 with Allow on every known path, for every other method", () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  const paths = knownPaths();

  it("covers the API table, the controls, the six OAuth and discovery paths and the portal", () => {
    expect(paths.length).toBeGreaterThan(routes.length / 2);
    expect(paths.map(([p]) => p)).toEqual(expect.arrayContaining(["/oauth/token", "/.well-known/oauth-authorization-server", "/"]));
  });

  it.each(paths)("%s: every other method is a 405 whose Allow lists %j (no Content-Type, then JSON)", async (path, allowed) => {
    const wrong: string[] = [];
    for (const method of METHODS.filter((m) => !allowed.includes(m)))
      for (const body of [undefined, "{}"]) {
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        // Content-Length by hand: node:http sends a DELETE, OPTIONS or TRACE body without framing otherwise.
        if (body !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": String(body.length) });
        const r = await rawRequest(sandbox.origin, method, path, headers, body);
        const allow = String(r.headers.allow ?? "")
          .split(", ")
          .sort();
        if (r.status !== 405 || allow.join() !== [...allowed].sort().join())
          wrong.push(`${method}${body ? " with a JSON body" : ""}: ${r.status} Allow "${String(r.headers.allow)}"`);
        else if (!path.startsWith("/portal/") && method !== "HEAD") expect(Problem.parse(r.json).status).toBe(405);
      }
    expect(wrong).toEqual([]);
  });

  it("QUERY without a Content-Type: 405 on a known path, 404 on an unknown one, never the 400 for a missing header", async () => {
    const known = await rawRequest(sandbox.origin, "QUERY", `${API_BASE_PATH}/organization`, { authorization: `Bearer ${token}` });
    expect(known.status).toBe(405);
    expect(known.headers.allow).toBe("GET, HEAD");
    for (const path of [`${API_BASE_PATH}/nothing`, "/oauth/nothing", "/nothing"]) {
      const r = await rawRequest(sandbox.origin, "QUERY", path, { authorization: `Bearer ${token}` });
      expect([path, r.status, Problem.parse(r.json).status]).toEqual([path, 404, 404]);
    }
    const page = await rawRequest(sandbox.origin, "QUERY", "/portal/nothing");
    expect(page.status).toBe(404);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
  });
});

/** A syntactically fine value of each path parameter that names no object (the one under test is replaced). */
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
/** A body each route with a body accepts, so its answer is about the path. */
const BODY: Record<string, unknown> = {
  updateGroup: { name: "n" },
  replaceMembers: { members: [] },
  addMember: { provider: "aws", accountId: "111122223333" },
  replaceAlert: alertBody(),
  replaceReport: reportBody(),
};
/** Lengths around fastify's old cut-off (100) up to what a request head can carry (16 KiB). */
const LENGTHS = [1, 60, 100, 101, 1000, 15_000];

describe("a path ID of any length gets the documented 404 naming the parameter", () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  const cases = routes.flatMap((route) =>
    [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => [route.operationId, route.method, route.path, name!] as const),
  );

  it("sweeps every {id} route of the table", () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)("%s (%s %s): params.%s", async (operationId, method, path, name) => {
    const answers: string[] = [];
    for (const length of LENGTHS) {
      const value = `${(UNKNOWN[name] ?? "x").slice(0, 4)}${"z".repeat(length)}`;
      const url = `${API_BASE_PATH}${path.replace(/\{([^}]+)\}/g, (_, p: string) => encodeURIComponent(p === name ? value : UNKNOWN[p]!))}`;
      const body = BODY[operationId] === undefined ? undefined : JSON.stringify(BODY[operationId]);
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined)
        Object.assign(headers, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
      const r: RawReply = await rawRequest(sandbox.origin, method, url, headers, body);
      const problem = Problem.safeParse(r.json);
      const named = problem.success && (problem.data.errors ?? []).some((e) => e.path === `params.${name}`);
      answers.push(`${length}: ${r.status}${named ? ` params.${name}` : ""}`);
    }
    expect(answers).toEqual(LENGTHS.map((length) => `${length}: 404 params.${name}`));
  });

  it("the sandbox controls' attachment route too", async () => {
    for (const length of LENGTHS) {
      const r = await rawRequest(sandbox.origin, "GET", `/sandbox/v1/outbox/msg_${"z".repeat(length)}/attachments/0`, {
        authorization: `Bearer ${token}`,
      });
      expect([length, r.status, (Problem.parse(r.json).errors ?? []).map((e) => e.path)]).toEqual([length, 404, ["params.messageId"]]);
    }
  });
});
