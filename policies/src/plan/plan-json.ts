import { z } from "@cloudcost/api";

/*
 * The part of a Terraform/OpenTofu plan in JSON (`tofu show -json plan.out`, "JSON Output Format",
 * format_version 1.x) that `check-plan` reads: every resource change with its planned values, and the
 * configuration's references (which resource an attribute's expression names).
 */

/** A value of `after_unknown` / `after_sensitive`: `true` where the value is unknown, or a parallel structure. */
export type ValueMarks = boolean | ValueMarks[] | { [key: string]: ValueMarks };
const ValueMarks: z.ZodType<ValueMarks> = z.lazy(() => z.union([z.boolean(), z.array(ValueMarks), z.record(z.string(), ValueMarks)]));

export const ResourceChange = z.object({
  address: z.string().min(1),
  mode: z.enum(["managed", "data"]),
  type: z.string().min(1),
  name: z.string(),
  change: z.object({
    actions: z.array(z.string()).min(1),
    /** The prior values; null when the resource is created. */
    before: z.record(z.string(), z.unknown()).nullable().optional(),
    /** The planned values; null when the resource is deleted. */
    after: z.record(z.string(), z.unknown()).nullable().optional(),
    after_unknown: ValueMarks.optional(),
  }),
});
export type ResourceChange = z.output<typeof ResourceChange>;

/** An attribute's expression in the configuration: the references it makes (e.g. `cloudcost_cloud_group.platform.id`). */
const Expression = z.object({ references: z.array(z.string()).optional() }).passthrough();

const ConfigResource = z.object({
  address: z.string(),
  mode: z.string().optional(),
  expressions: z.record(z.string(), z.unknown()).optional(),
});

export interface ConfigModule {
  resources?: z.output<typeof ConfigResource>[];
  module_calls?: Record<string, { module?: ConfigModule }>;
}
const ConfigModule: z.ZodType<ConfigModule> = z.lazy(() =>
  z.object({
    resources: z.array(ConfigResource).optional(),
    module_calls: z.record(z.string(), z.object({ module: ConfigModule.optional() }).passthrough()).optional(),
  }),
);

export const PlanJson = z.object({
  format_version: z.string().regex(/^1\./, "format_version 1.x (what `tofu show -json` and `terraform show -json` print)"),
  resource_changes: z.array(ResourceChange).default([]),
  configuration: z.object({ root_module: ConfigModule.optional() }).passthrough().optional(),
});
export type PlanJson = z.output<typeof PlanJson>;

/** The references of every attribute expression, per configuration address (`module.m.cloudcost_budget_alert.x`). */
export function referencesByAddress(plan: PlanJson): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  const visit = (module: ConfigModule | undefined, prefix: string) => {
    for (const r of module?.resources ?? []) {
      const attributes = new Map<string, string[]>();
      for (const [attribute, expression] of Object.entries(r.expressions ?? {})) {
        const parsed = Expression.safeParse(expression);
        if (parsed.success && parsed.data.references?.length)
          attributes.set(
            attribute,
            parsed.data.references.map((ref) => prefix + ref),
          );
      }
      out.set(prefix + r.address, attributes);
    }
    for (const [name, call] of Object.entries(module?.module_calls ?? {})) visit(call.module, `${prefix}module.${name}.`);
  };
  visit(plan.configuration?.root_module, "");
  return out;
}
