import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "../sandbox/api-client";
import { loadContract } from "./support/contract";

/**
 * Issue 34 item 4: rules the server enforces are stated in api/openapi.json (generated from the zod
 * contract), so a client validating against the document is refused what the server refuses. Each rule is
 * checked in the document and against a real sandbox, judged by Ajv (a third-party JSON Schema validator).
 */
type Json = Record<string, unknown>;
const { document } = loadContract();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, "openapi.json");
const valid = (component: string, value: unknown): boolean =>
  ajv.validate({ $ref: `openapi.json#/components/schemas/${component}` }, value);

const costReads = Object.entries(document.paths as Record<string, Json>)
  .filter(([path]) => path.startsWith("/cost/"))
  .map(([path, item]) => [path, ((item.get as Json).parameters as Json[]).filter((p) => p.in === "query")] as const);
const FILTER_PARAMS = ["providers", "accountIds", "services", "regions", "tag"];
const schemaOf = (params: readonly Json[], name: string) => params.find((p) => p.name === name)!.schema as Json;

describe("the document states the rules the server enforces", () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());
  const window = "from=2026-10-01&to=2026-10-31";

  it("every cost read's repeated filter parameters are sets (uniqueItems), as the server refuses a value given twice", async () => {
    expect(costReads.length).toBe(5);
    for (const [path, params] of costReads)
      for (const name of FILTER_PARAMS) expect([path, name, schemaOf(params, name).uniqueItems]).toEqual([path, name, true]);
    const twice: Record<string, string> = {
      providers: "aws",
      accountIds: "111122223333",
      services: "Amazon%20EC2",
      regions: "us-east-1",
      tag: "team=web",
    };
    for (const [path] of costReads)
      for (const [name, value] of Object.entries(twice)) {
        const r = await call(sandbox, "GET", `${path}?${window}&${name}=${value}&${name}=${value}`, { token });
        expect([path, name, r.status]).toEqual([path, name, 400]);
      }
  });

  it("the tag parameter's pattern is the rule applied: KEY=VALUE with a TagKey and a TagValue", async () => {
    const pattern = new RegExp(String((schemaOf(costReads[0]![1], "tag").items as Json).pattern), "u");
    const samples = [
      "team=web",
      "team=",
      "cost-center=cc-100",
      "team=a=b",
      "=web",
      " team=web",
      "team =web",
      "te<am=web",
      "team=<b>",
      `${"k".repeat(129)}=v`,
      `team=${"v".repeat(257)}`,
      "teamweb",
    ];
    const disagreements: string[] = [];
    for (const tag of samples) {
      const r = await call(sandbox, "GET", `/cost/summary?${window}&tag=${encodeURIComponent(tag)}`, { token });
      // 200 or 422 (a key or value this organization does not have): the format was accepted; 400: it was not.
      const server = r.status !== 400;
      if (pattern.test(tag) !== server) disagreements.push(`${tag.slice(0, 24)}: document ${!server}, server ${server} (${r.status})`);
    }
    expect(disagreements).toEqual([]);
    expect(samples.filter((tag) => pattern.test(tag))).toEqual(["team=web", "team=", "cost-center=cc-100", "team=a=b"]);
  });

  it("/oauth/register: each redirect URI is a URI (format: uri), and one that is not is refused by the document and the server", async () => {
    const request = (document.components as { schemas: Record<string, Json> }).schemas.ClientRegistrationRequest!;
    const items = ((request.properties as Json).redirect_uris as Json).items as Json;
    expect(items.format).toBe("uri");
    expect(valid("ClientRegistrationRequest", { redirect_uris: ["not a uri"] })).toBe(false);
    expect(valid("ClientRegistrationRequest", { redirect_uris: ["http://127.0.0.1:8976/callback"] })).toBe(true);
    const r = await fetch(`${sandbox.origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["not a uri"] }),
    });
    expect(r.status).toBe(400);
  });

  it("a report needs recipients unless it has a webhookUrl: the document refuses what the server refuses", async () => {
    const report = {
      name: "Weekly summary",
      report: "summary",
      schedule: { frequency: "weekly", dayOfWeek: "monday", time: "09:00", timezone: "Europe/Berlin" },
    };
    const cases: [string, Json, boolean][] = [
      ["no recipients, no webhook", report, false],
      ["an empty recipient list", { ...report, recipients: [] }, false],
      ["an empty list and a null webhook", { ...report, recipients: [], webhookUrl: null }, false],
      ["a recipient", { ...report, recipients: ["finops@example.com"] }, true],
      ["a webhook only", { ...report, webhookUrl: "http://127.0.0.1:9/hook" }, true],
    ];
    for (const [what, body, ok] of cases) {
      const r = await call(sandbox, "POST", "/reports", { token, json: body });
      expect([what, valid("ReportInput", body), r.status]).toEqual([what, ok, ok ? 201 : 400]);
    }
  });
});
