/**
 * The native plugin's package schema (native/schema.json): fresh, valid against pulumi/pulumi's package
 * metaschema, and saying what the runtime does — the inputs Check requires, the secrets it keeps.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { handlers } from "@cloudcost/pulumi/runtime";
import { schemaText, SCHEMA_FILE } from "@cloudcost/pulumi-resource-cloudcost/dist/schema/write";

const REPO = join(__dirname, "..", "..");

interface PropertySpec {
  secret?: boolean;
  description?: string;
}
interface ResourceSpec {
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
}
interface PackageSchema {
  config: { variables: Record<string, PropertySpec> };
  resources: Record<string, ResourceSpec>;
  functions: Record<string, { outputs: { properties: Record<string, PropertySpec> } }>;
}

const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as PackageSchema;

/** pulumi/pulumi's package metaschema, copied from the pinned pkg/v3 (fixtures/README.md; kept fresh by test/engine/native-metaschema.test.ts). */
const metaschema = (): object => JSON.parse(readFileSync(join(__dirname, "fixtures", "pulumi-package-metaschema.json"), "utf8")) as object;

describe("native/schema.json", () => {
  it("is what the generator writes from the contract, the runtime specs and the reference pages (run `npm run schema -w native`)", () => {
    expect(readFileSync(SCHEMA_FILE, "utf8")).toBe(schemaText());
  });

  it("names one download location for every release, which the engine fills with the version; a release may name another", () => {
    const committed = JSON.parse(schemaText()) as { version: string; pluginDownloadURL: string };
    expect(committed.pluginDownloadURL).toBe("https://github.com/cloudcost/cloudcost-pulumi/releases/download/v${VERSION}");
    const released = JSON.parse(schemaText("9.8.7", "http://127.0.0.1:9/releases/v${VERSION}")) as typeof committed;
    expect(released).toEqual(expect.objectContaining({ version: "9.8.7", pluginDownloadURL: "http://127.0.0.1:9/releases/v${VERSION}" }));
  });

  it("is a valid Pulumi package schema by pulumi/pulumi's metaschema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv); // the metaschema's `format: regex` (meta.moduleFormat)
    const validate = ajv.compile(metaschema());
    const valid = validate(schema);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it.each(["CloudGroup", "BudgetAlert", "ScheduledReport"] as const)(
    "%s: the required inputs are exactly those Check reports missing from empty inputs",
    async (kind) => {
      const result = await handlers[kind].check({}, {});
      const missing = (result.failures ?? []).filter((f) => f.reason === "is required").map((f) => f.property);
      expect(schema.resources[`cloudcost:index:${kind}`]!.requiredInputs.sort()).toEqual(missing.sort());
    },
  );

  it("marks the secrets: the webhook URL, the API token and client secret, the signing secret", () => {
    const alert = schema.resources["cloudcost:index:BudgetAlert"]!;
    expect(alert.inputProperties.webhookUrl?.secret).toBe(true);
    expect(alert.properties.webhookUrl?.secret).toBe(true);
    const secretConfig = Object.entries(schema.config.variables).flatMap(([k, v]) => (v.secret ? [k] : []));
    expect(secretConfig.sort()).toEqual(["apiToken", "clientSecret"]);
    expect(schema.functions["cloudcost:index:getWebhookSigningSecret"]!.outputs.properties.secret?.secret).toBe(true);
  });

  it("describes every property with the reference page's words and offers no dynamic-only adoptId", () => {
    const alert = schema.resources["cloudcost:index:BudgetAlert"]!;
    const page = readFileSync(join(REPO, "provider", "docs", "budget-alert.md"), "utf8");
    expect(page).toContain(alert.inputProperties.amount!.description!.split(";")[0]);
    for (const r of Object.values(schema.resources)) {
      expect(Object.keys(r.inputProperties)).not.toContain("adoptId");
      for (const [name, p] of Object.entries(r.inputProperties))
        expect([name, p.description ?? ""]).toEqual([name, expect.stringMatching(/\S/)]);
    }
  });

  it.each([
    ["CloudGroup", "cloud-group"],
    ["BudgetAlert", "budget-alert"],
    ["ScheduledReport", "scheduled-report"],
  ])("carries %s's reference-page example in TypeScript, Python, Go and YAML, in Pulumi's example shortcodes", (kind, page) => {
    const description = schema.resources[`cloudcost:index:${kind}`]!.description;
    const markdown = readFileSync(join(REPO, "provider", "docs", `${page}.md`), "utf8");
    const section = markdown.slice(markdown.indexOf("\n## The example in every language\n"));
    const examples =
      /\{\{% examples %\}\}\n## Example Usage\n\{\{% example %\}\}\n[\s\S]*\{\{% \/example %\}\}\n\{\{% \/examples %\}\}$/.exec(
        description,
      )?.[0];
    expect(examples).toBeDefined();
    const blocks = [...examples!.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, language, code]) => ({ language, code }));
    expect(blocks.map((b) => b.language)).toEqual(["typescript", "python", "go", "yaml"]);
    // Each is the page's block of that language, word for word.
    for (const { language, code } of blocks) expect(section).toContain(`\`\`\`${language}\n${code}\`\`\``);
    expect(blocks[0]!.code).toContain(`new cloudcost.${kind}(`);
  });
});
