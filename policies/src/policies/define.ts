import type { Resource } from "@pulumi/pulumi";
import { EnforcementLevel, ResourceValidationPolicy, validateResourceOfType } from "@pulumi/policy";
import { z } from "@cloudcost/api";
import { readConfig, toConfigSchema } from "../config/schema";

/** A resource class of the provider: its static `__pulumiType` is what the policies match on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors @pulumi/policy's own constructor signature
export type ResourceClass<A> = { new (name: string, args: A, ...rest: any[]): Resource };

export interface ResourceCheck<V, S extends z.ZodObject> {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  config: S;
  /** Turns the declared inputs into the view the check judges. */
  read: (props: object) => V;
  /** The policy's logic: one message per violation, each saying what to change. */
  check: (view: V, config: z.output<S>) => string[];
}

/** A resource policy matched on the provider's type token, with its configuration schema generated from zod. */
export function resourcePolicy<A, V, S extends z.ZodObject>(
  resourceClass: ResourceClass<A>,
  spec: ResourceCheck<V, S>,
): ResourceValidationPolicy {
  return {
    name: spec.name,
    description: spec.description,
    enforcementLevel: spec.enforcementLevel,
    configSchema: toConfigSchema(spec.config),
    validateResource: validateResourceOfType(resourceClass, (props, args, reportViolation) => {
      const config = readConfig(args, spec.config, spec.name);
      for (const message of spec.check(spec.read(props as object), config)) reportViolation(message);
    }),
  };
}
