import type { EnforcementLevel, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import type { PolicyConfigJSONSchemaType } from "@pulumi/policy/schema";
import type { z } from "@cloudcost/api";

/** How a platform team adapts one of our policies when it builds its own pack (as with pulumi-policy-aws). */
export interface PolicyOptions<C> {
  enforcementLevel?: EnforcementLevel;
  /**
   * New defaults for the policy's configuration properties. They go into the config schema, so the CLI
   * applies them before the pack sees its configuration, exactly like our own defaults; a stack's
   * `--policy-pack-config` still overrides them.
   */
  defaults?: Partial<C>;
}

export type PolicyFactory<P, C> = (options?: PolicyOptions<C>) => P;

type Policy = ResourceValidationPolicy | StackValidationPolicy;

/** The properties of a policy's config schema (the JSON Schema `toConfigSchema` generates from zod). */
type ConfigSchema = NonNullable<Policy["configSchema"]>;

const isJson = (value: unknown): value is PolicyConfigJSONSchemaType =>
  value === null || ["string", "number", "boolean", "object"].includes(typeof value);

function withDefaults(schema: ConfigSchema | undefined, defaults: Record<string, unknown>, policy: string): ConfigSchema | undefined {
  if (Object.keys(defaults).length === 0) return schema;
  const properties = { ...schema?.properties };
  for (const [key, value] of Object.entries(defaults)) {
    const property = properties[key];
    if (property === undefined) throw new Error(`policy "${policy}" has no configuration property "${key}"`);
    if (!isJson(value)) throw new Error(`default of "${key}" for policy "${policy}" is not a JSON value`);
    properties[key] = { ...property, default: value };
  }
  return { ...schema, properties };
}

/**
 * Turns one policy into a factory: `budgetAlertCurrency()` is our policy as shipped,
 * `budgetAlertCurrency({ enforcementLevel: "advisory", defaults: { allowedCurrencies: ["EUR"] } })` a
 * variant. Defaults are checked against the policy's own zod schema when the factory is called, so a
 * misspelt or ill-typed default fails while the pack is built, not during a deployment.
 */
export function composable<P extends Policy, S extends z.ZodObject>(policy: P, config: S): PolicyFactory<P, z.input<S>> {
  return (options = {}) => {
    const defaults = options.defaults ?? {};
    const checked = config.partial().strict().safeParse(defaults);
    if (!checked.success)
      throw new Error(
        `defaults of policy "${policy.name}" are invalid: ${checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
        {
          cause: checked.error,
        },
      );
    return {
      ...policy,
      enforcementLevel: options.enforcementLevel ?? policy.enforcementLevel,
      configSchema: withDefaults(policy.configSchema, defaults, policy.name),
    };
  };
}
