import { EnforcementLevel, StackValidationPolicy } from "@pulumi/policy";
import { z } from "@cloudcost/api";
import { readConfig, toConfigSchema } from "../config/schema";
import { StackView, readStack } from "./stack-view";

/** A stack policy's finding, attached to the resource that has to change. */
export interface StackViolation {
  urn: string;
  message: string;
}

export interface StackCheck<S extends z.ZodObject> {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  config: S;
  check: (stack: StackView, config: z.output<S>) => StackViolation[];
}

export function stackPolicy<S extends z.ZodObject>(spec: StackCheck<S>): StackValidationPolicy {
  return {
    name: spec.name,
    description: spec.description,
    enforcementLevel: spec.enforcementLevel,
    configSchema: toConfigSchema(spec.config),
    validateStack: (args, reportViolation) => {
      const config = readConfig(args, spec.config, spec.name);
      for (const v of spec.check(readStack(args.resources), config)) reportViolation(v.message, v.urn);
    },
  };
}
