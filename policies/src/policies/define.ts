import type { EnforcementLevel, ResourceValidationPolicy } from "@pulumi/policy";
import { z } from "@cloudcost/api";
import { readConfig, toConfigSchema } from "../config/schema";
import { validateResourceOfKind, type ResourceClass } from "../resource-types";

export type { ResourceClass } from "../resource-types";

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

/** A resource policy matched on the kind's type tokens (dynamic and native), with its configuration schema generated from zod. */
export function resourcePolicy<A, V, S extends z.ZodObject>(
  resourceClass: ResourceClass<A>,
  spec: ResourceCheck<V, S>,
): ResourceValidationPolicy {
  return {
    name: spec.name,
    description: spec.description,
    enforcementLevel: spec.enforcementLevel,
    configSchema: toConfigSchema(spec.config),
    validateResource: validateResourceOfKind(resourceClass, (props, args, reportViolation) => {
      const config = readConfig(args, spec.config, spec.name);
      for (const message of spec.check(spec.read(props as object), config)) reportViolation(message);
    }),
  };
}
