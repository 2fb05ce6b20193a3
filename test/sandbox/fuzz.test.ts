import { Problem, routeById, routes, type Route } from "@cloudcost/api";
import fc from "fast-check";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, alertBody, call, fields, reportBody } from "./api-client";

/** A valid body per route with one, so mutations stay close to what the schemas accept. */
const VALID_BODIES: Record<string, unknown> = {
  createGroup: { name: "Fuzz", description: "" },
  updateGroup: { description: "fuzzed" },
  replaceMembers: { members: [{ provider: "aws", accountId: DEMO_AWS[0] }] },
  addMember: { provider: "aws", accountId: DEMO_AWS[1] },
  createAlert: alertBody(),
  replaceAlert: alertBody(),
  createReport: reportBody(),
  replaceReport: reportBody(),
};

/** Random JSON, or a valid body with one field replaced by random JSON. */
function bodies(route: Route): fc.Arbitrary<{ raw: string } | { json: unknown } | undefined> {
  const valid = VALID_BODIES[route.operationId];
  const mutated =
    valid && typeof valid === "object"
      ? fc
          .tuple(fc.constantFrom(...Object.keys(valid), "extra"), fc.jsonValue())
          .map(([k, v]) => ({ json: { ...(valid as Record<string, unknown>), [k]: v } }))
      : fc.constant(undefined);
  return fc.oneof(
    fc.constant(undefined),
    fc.jsonValue().map((json) => ({ json })),
    mutated,
    fc.string({ maxLength: 40 }).map((raw) => ({ raw })),
  );
}

describe("fuzzing every route of the table", () => {
  let sandbox: RunningSandbox;
  let token: string;
  let ids: Record<string, string[]>;

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0", "--scan-step-ms", "20"] });
    token = await sandbox.token();
    const group = String(fields(await call(sandbox, "POST", "/groups", { token, json: { name: "Fuzz target" } })).id);
    const alert = String(fields(await call(sandbox, "POST", "/alerts", { token, json: alertBody() })).id);
    const report = String(fields(await call(sandbox, "POST", "/reports", { token, json: reportBody() })).id);
    const run = String(fields(await call(sandbox, "POST", "/scans", { token })).runId);
    ids = {
      groupId: [group],
      alertId: [alert],
      reportId: [report],
      runId: [run],
      findingId: ["100001", "100002"],
      provider: ["aws", "azure"],
      accountId: [...DEMO_AWS],
    };
  });
  afterAll(() => sandbox.dispose());

  const paramValue = (name: string) =>
    fc.oneof(
      fc.constantFrom(...(ids[name] ?? ["x"])),
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.stringMatching(/^[a-z]{3}_[0-9a-z]{10,20}$/),
    );
  const query = fc.oneof(
    fc.constant(""),
    fc
      .dictionary(fc.constantFrom("from", "to", "groupId", "limit", "cursor", "x"), fc.string({ maxLength: 20 }), { maxKeys: 4 })
      .map((d) => new URLSearchParams(d).toString()),
    fc.constant("from=2026-01-01&to=2026-01-31"),
  );

  it("never answers 5xx, answers every error as problem+json, and stays up (300 random requests)", async () => {
    const request = fc.constantFrom(...routes.map((r) => r.operationId)).chain((operationId) => {
      const route = routeById(operationId);
      return fc.record({
        operationId: fc.constant(operationId),
        params: fc.record(Object.fromEntries([...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, paramValue(m[1]!)]))),
        query,
        // fetch cannot send a body with GET.
        body: route.method === "GET" ? fc.constant(undefined) : bodies(route),
        ifMatch: fc.option(fc.constantFrom("*", '"stale"', "garbage"), { nil: undefined }),
      });
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ operationId, params, query: q, body, ifMatch }) => {
        const route = routeById(operationId);
        const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          encodeURIComponent((params as Record<string, string>)[name] ?? ""),
        );
        const headers: Record<string, string> = ifMatch ? { "if-match": ifMatch } : {};
        if (body && "raw" in body) headers["content-type"] = "application/json";
        const reply = await call(sandbox, route.method, `${path}${q ? `?${q}` : ""}`, { token, headers, ...(body ?? {}) });
        expect(reply.status).toBeLessThan(500);
        if (reply.status >= 400) {
          expect(reply.headers.get("content-type")).toMatch(/^application\/problem\+json/);
          expect(Problem.safeParse(reply.body).success).toBe(true);
        }
      }),
      { numRuns: 300, seed: 20261122, endOnFailure: true },
    );
    expect(sandbox.process.exitCode).toBeNull();
    expect((await call(sandbox, "GET", "/openapi.json")).status).toBe(200);
  });

  it("survives random paths and methods under /api/v1 (100 random requests)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }),
        async (method, segments) => {
          const reply = await call(sandbox, method, `/${segments.map(encodeURIComponent).join("/")}`, { token });
          expect(reply.status).toBeLessThan(500);
          if (reply.status >= 400) expect(Problem.safeParse(reply.body).success).toBe(true);
        },
      ),
      { numRuns: 100, seed: 7, endOnFailure: true },
    );
  });
});
