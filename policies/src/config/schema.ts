import type { PolicyConfigSchema } from "@pulumi/policy";
import { z } from "@cloudcost/api";

/** What a policy's validation callbacks receive; only `getConfig` is needed to read the configuration. */
export interface ConfigSource {
  getConfig<T extends object>(): T;
}

/**
 * One source of truth for a policy's configuration: a zod object, from which the JSON `configSchema`
 * (with defaults, advertised in GetAnalyzerInfo and enforced by the CLI) is generated. The zod schemas
 * use only constraints JSON Schema can express, so a configuration the CLI accepts always parses here.
 */
export function toConfigSchema(schema: z.ZodObject): PolicyConfigSchema {
  // "input" view: a field with a default is optional for the user; draft-07 is what the CLI's validator knows.
  const json = z.toJSONSchema(schema, { io: "input", target: "draft-7" }) as {
    properties?: PolicyConfigSchema["properties"];
    required?: string[];
  };
  return { properties: json.properties ?? {}, ...(json.required?.length ? { required: json.required } : {}) };
}

/**
 * The configuration a policy runs with: what the CLI sent (already defaulted and validated against the
 * schema) parsed once more, so policy code gets typed values and the same defaults when a host sends none.
 */
export function readConfig<S extends z.ZodObject>(source: ConfigSource, schema: S, policyName: string): z.output<S> {
  const parsed = schema.safeParse(source.getConfig<Record<string, unknown>>());
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(config)"}: ${i.message}`).join("; ");
  throw new Error(`policy configuration of "${policyName}" is invalid: ${problems}`);
}
