import { buildOpenApiDocument } from "@cloudcost/api";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "./api-client";

describe("OpenAPI document", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.dispose());

  it("is not stale: api/openapi.json equals what the contract generates (run `npm run openapi`)", () => {
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, "..", "..", "api", "openapi.json"), "utf8"));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it("is served at GET /api/v1/openapi.json without a token", async () => {
    const r = await call(sandbox, "GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it("is the docs' API reference (docs/reference/api.md): every resource links to its schema, and every link resolves", () => {
    const readme = readFileSync(join(__dirname, "..", "..", "docs", "reference", "api.md"), "utf8");
    const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Record<string, unknown>;
    const pointers = [...readme.matchAll(/\]\(\.\.\/\.\.\/api\/openapi\.json#(\/[^)]*)\)/g)].map((m) => m[1]!);
    const resolve = (pointer: string): unknown =>
      pointer
        .split("/")
        .slice(1)
        .reduce<unknown>(
          (node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")],
          document,
        );
    expect(pointers.filter((p) => resolve(p) === undefined)).toEqual([]);
    const linked = new Set(pointers.map((p) => p.split("/").pop()));
    for (const resource of [
      "CloudGroup",
      "BudgetAlert",
      "ScheduledReport",
      "CostSummary",
      "Finding",
      "ConnectedAccount",
      "ScanRun",
      "Problem",
      "TokenResponse",
    ])
      expect(linked).toContain(resource);
  });
});
