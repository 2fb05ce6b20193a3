import { buildOpenApiDocument } from "@cloudcost/api";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startSandbox, type RunningSandbox } from "../harness/sandbox";
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
});
