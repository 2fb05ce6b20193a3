import * as api from "@cloudcost/api";
import type { ResourceKind } from "@cloudcost/pulumi";
import { SETTINGS_ENV, specs } from "@cloudcost/pulumi/runtime";
import { FUNCTIONS, functionToken, operationSummary } from "../functions";
import { KINDS, PACKAGE, resourceToken } from "../tokens";
import { docsText, type DocsExample, type DocsRow } from "./docs-text";
import { jsonSchemaOf, TypeRegistry, type ObjectTypeSpec, type PropertySpec } from "./pulumi-types";

/*
 * The package schema of `pulumi-resource-cloudcost` (pulumi/pulumi pkg/codegen/schema/pulumi.json), generated
 * from what the dynamic resources already are: property names and types from the contract's zod schemas
 * (the runtime's check schema per kind for inputs, the service's answer for outputs), required inputs from
 * what the runtime defaults, descriptions from the reference pages users read (provider/docs), secrets
 * where those pages say "(secret)". `npm run schema -w native` writes native/schema.json; a test fails
 * when it is stale.
 */

type Json = Record<string, unknown>;
type Properties = Record<string, PropertySpec>;

/** Inputs the native package leaves out: `adoptId` is the dynamic package's answer to what `import` does here. */
const DYNAMIC_ONLY = new Set(["adoptId"]);

/** Provider configuration, with the environment variables the runtime falls back to (runtime/settings.ts). */
const CONFIG: Record<keyof typeof SETTINGS_ENV, { description: string; secret?: boolean }> = {
  apiUrl: { description: "The API base URL, ending in /api/v1" },
  apiToken: { description: "An API token (bearer); wins over client credentials when both are set", secret: true },
  clientId: { description: "OAuth client id for the client-credentials grant (with clientSecret)" },
  clientSecret: { description: "OAuth client secret for the client-credentials grant", secret: true },
  authUrl: { description: "The OAuth authorization server's origin; default: the origin of apiUrl" },
};

function configProperties(): Properties {
  return Object.fromEntries(
    Object.entries(CONFIG).map(([key, { description, secret }]) => [
      key,
      {
        type: "string",
        description: `${description}. When not set: the ${SETTINGS_ENV[key as keyof typeof SETTINGS_ENV]} environment variable.`,
        ...(secret ? { secret: true } : {}),
      },
    ]),
  );
}

/** The page's words for a field; what the contract allows (an enum's values) comes first when there is such a list. */
function described(row: DocsRow | undefined, fallback?: string, allowed?: string): PropertySpec {
  const def = row?.default && row.default !== "none" ? `default: ${row.default}` : "";
  const text = [allowed, row?.text || fallback, def].filter(Boolean).join("; ");
  return { ...(text ? { description: text } : {}), ...(row?.secret ? { secret: true } : {}) };
}

interface ResourceSchema {
  description: string;
  inputProperties: Properties;
  requiredInputs: string[];
  properties: Properties;
  required: string[];
}

/**
 * A resource's description with its reference page's native example in Pulumi's example shortcodes: each
 * language's SDK generator keeps only its own language's block (pkg/codegen `FilterExamples`), so the generated
 * TypeScript, Python and Go documentation each show the example in their language, and YAML docs theirs.
 */
function withExamples(summary: string, examples: readonly DocsExample[]): string {
  if (examples.length === 0) return summary;
  const blocks = examples.map(({ language, code }) => `\`\`\`${language}\n${code}\`\`\``).join("\n");
  return `${summary}\n\n{{% examples %}}\n## Example Usage\n{{% example %}}\n### The reference page's example\n\n${blocks}\n{{% /example %}}\n{{% /examples %}}`;
}

function resourceSchema(kind: ResourceKind, types: TypeRegistry): ResourceSchema {
  const spec = specs[kind];
  const docs = docsText(kind);
  const input = jsonSchemaOf(spec.schema, "input");
  const inputShape = types.objectSpec(input, kind);
  // What the runtime fills in when a field is omitted is not required of the user.
  const defaulted = new Set(Object.entries(spec.normalise({})).flatMap(([k, v]) => (v === undefined ? [] : [k])));
  const inputProperties: Properties = {};
  for (const [key, type] of Object.entries(inputShape.properties)) {
    if (DYNAMIC_ONLY.has(key)) continue;
    inputProperties[key] = { ...type, ...described(docs.inputs.get(key), undefined, type.description) };
  }
  const requiredInputs = (input.required as string[]).filter((k) => k in inputProperties && !defaulted.has(k));

  // Outputs: what the reference page lists (the runtime's `outputs(live)` plus the inputs and the owner).
  const live = (jsonSchemaOf((api as unknown as Record<string, api.z.ZodObject>)[kind]!, "output").properties ?? {}) as Record<
    string,
    Json
  >;
  const properties: Properties = {};
  const required: string[] = [];
  for (const [key, row] of docs.outputs) {
    if (key === "id" || DYNAMIC_ONLY.has(key)) continue;
    const type: PropertySpec = inputShape.properties[key] ?? (live[key] ? types.typeOf(live[key], kind, key) : { type: "string" });
    properties[key] = { ...type, ...described(row, docs.inputs.get(key)?.text, type.description) };
    if (!row.nullable && !row.secret) required.push(key);
  }
  return {
    description: withExamples(docs.summary.charAt(0).toUpperCase() + docs.summary.slice(1), docs.examples),
    inputProperties,
    requiredInputs,
    properties,
    required,
  };
}

/** Nested input types get their field descriptions from the reference page's nested table (a report's schedule). */
function describeNested(types: Record<string, ObjectTypeSpec>): void {
  for (const kind of KINDS) {
    const nested = docsText(kind).nested;
    if (nested.size === 0) continue;
    for (const type of Object.values(types)) {
      const keys = Object.keys(type.properties);
      if (!keys.every((k) => nested.has(k))) continue;
      for (const k of keys)
        type.properties[k] = { ...type.properties[k], ...described(nested.get(k), undefined, type.properties[k]?.description) };
    }
  }
}

function functionSchema(name: string, types: TypeRegistry): Json {
  const fn = FUNCTIONS[name]!;
  const owner = name.replace(/^get/, "");
  const outputs = types.objectSpec(jsonSchemaOf(fn.output, "output"), owner);
  for (const key of fn.secretOutputs ?? []) outputs.properties[key] = { ...outputs.properties[key], secret: true };
  return {
    description: operationSummary(fn.operationId),
    ...(fn.input ? { inputs: types.objectSpec(jsonSchemaOf(fn.input, "input"), owner) } : {}),
    outputs,
  };
}

/**
 * Where the engine downloads the plugin from when a program or `pulumi plugin install` needs it: the release's
 * assets, `pulumi-resource-cloudcost-v<version>-<os>-<arch>.tar.gz` under this URL (pulumi/pulumi
 * sdk/go/common/workspace/plugins.go, httpSource: `${VERSION}` is interpolated, the file name appended). One
 * URL for every version, so the committed schema does not change per release; `npm run release
 * --plugin-download-url` writes another into the released schema and SDKs (RELEASING.md).
 */
export const RELEASE_PLUGIN_DOWNLOAD_URL = "https://github.com/cloudcost/cloudcost-pulumi/releases/download/v${VERSION}";

/** The whole package schema; VERSION is the plugin's (the provider package's version), PLUGIN_DOWNLOAD_URL where it is downloaded from. */
export function packageSchema(version: string, pluginDownloadURL: string = RELEASE_PLUGIN_DOWNLOAD_URL): Json {
  const types = new TypeRegistry(PACKAGE);
  const resources = Object.fromEntries(KINDS.map((kind) => [resourceToken(kind), resourceSchema(kind, types)]));
  const functions = Object.fromEntries(Object.keys(FUNCTIONS).map((name) => [functionToken(name), functionSchema(name, types)]));
  describeNested(types.types);
  const config = configProperties();
  return {
    name: PACKAGE,
    displayName: "Cloud Cost",
    version,
    description: "Cloud Groups, budget alerts and scheduled reports of the Cloud Cost Management API",
    keywords: ["pulumi", "cloudcost", "finops", "budgets", "kind/native"],
    homepage: "https://github.com/cloudcost/cloudcost-pulumi#readme",
    repository: "https://github.com/cloudcost/cloudcost-pulumi",
    license: "Apache-2.0",
    publisher: "cloudcost",
    pluginDownloadURL,
    // supportPack: gen-sdk writes the package files a registry takes (sdk/go/go.mod, versions in package.json/setup.py).
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables: config },
    provider: {
      description: "The cloudcost provider: which API to reach and with which credentials.",
      inputProperties: config,
      properties: config,
    },
    types: Object.fromEntries(Object.entries(types.types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
    // respectSchemaVersion: the generated SDKs (sdk/, `pulumi package gen-sdk`) carry the schema's version in
    // package.json, setup.py and pulumi-plugin.json, so a program on an SDK asks the engine for this plugin's version.
    language: {
      nodejs: {
        packageName: "@cloudcost/pulumi-native",
        packageDescription: "Native Pulumi SDK for the Cloud Cost Management API",
        respectSchemaVersion: true,
      },
      python: { packageName: "pulumi_cloudcost", respectSchemaVersion: true },
      go: {
        importBasePath: "github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
    },
  };
}
