import type { Policies } from "@pulumi/policy";
import { examplesInHcl } from "../rules/code-example";
import { judgeResources } from "../verdict/judge";
import { PlanJson } from "./plan-json";
import { TERRAFORM_TYPES, plannedResources, type PlannedResource } from "./plan-resources";
import { attributeInMessage, attributeNames, inTerraformNames } from "./terraform-names";
import { PolicyConfigFile, policyConfigs } from "./policy-config";

/** One finding on a plan: the resource's address and the attribute in Terraform's names. */
export interface PlanViolation {
  policy: string;
  enforcementLevel: "advisory" | "mandatory";
  address: string;
  /** The attribute the message is about (`planned_amounts[0].amount`); undefined when the resource as a whole is. */
  attribute?: string;
  message: string;
}

export interface PlanVerdict {
  violations: PlanViolation[];
  /** How many cloudcost_* resources the plan leaves in place, i.e. were judged. */
  resources: number;
  /** Names in the policy configuration that are no policy of the set: ignored, as the Pulumi CLI ignores them. */
  ignoredConfig: string[];
}

/** The plan or the policy configuration is not what `check-plan` can judge: the message says which file part and why. */
export class PlanInputError extends Error {
  constructor(
    readonly input: "plan" | "config" | "preview" | "waivers",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "PlanInputError";
  }
}

/**
 * Judges PLAN (the parsed JSON of `tofu show -json plan.out`) with POLICIES and CONFIG (the parsed
 * `--policy-pack-config` file): both are checked first, and a malformed one is a {@link PlanInputError}.
 */
export async function judgePlan(plan: unknown, policies: Policies, config: unknown = {}): Promise<PlanVerdict> {
  const parsedPlan = parsePlan(plan);
  const { configs, ignored } = policyConfigs(policies, parseConfig(config));
  const { violations, resources } = await checkPlan(parsedPlan, policies, configs);
  return { violations, resources, ignoredConfig: ignored };
}

/** PLAN checked against the plan JSON's schema; a {@link PlanInputError} says what is wrong. */
export function parsePlan(plan: unknown): PlanJson {
  const parsed = PlanJson.safeParse(plan);
  if (!parsed.success)
    throw new PlanInputError("plan", `not a plan in JSON (tofu show -json): ${issues(parsed.error.issues)}`, { cause: parsed.error });
  return parsed.data;
}

/** CONFIG checked as a policy configuration (`--policy-pack-config`'s file). */
export function parseConfig(config: unknown): PolicyConfigFile {
  const parsed = PolicyConfigFile.safeParse(config);
  if (!parsed.success)
    throw new PlanInputError("config", `not a policy configuration: ${issues(parsed.error.issues)}`, { cause: parsed.error });
  return parsed.data;
}

export const issues = (list: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  list.map((i) => `${i.path.map(String).join(".") || "(top)"}: ${i.message}`).join("; ");

/**
 * Judges a Terraform plan with the policy pack's own policies (POLICIES, by default `defaultPolicies()`), with
 * their enforcement levels and configuration (the same file `--policy-pack-config` takes): every
 * resource policy on each cloudcost_* resource the plan leaves in place, every stack policy on all of them,
 * messages in Terraform's names and HCL's syntax.
 */
export async function checkPlan(
  plan: PlanJson,
  policies: Policies,
  configs: ReturnType<typeof policyConfigs>["configs"],
): Promise<{ violations: PlanViolation[]; resources: number; judged: { address: string; policy: string }[] }> {
  const planned = plannedResources(plan);
  const byAddress = new Map(planned.map((p) => [p.address, p]));
  // Field names of every planned resource: stack messages name other resources' attributes too.
  const names = new Map<string, string>();
  for (const p of planned) attributeNames(p.after, names);
  // "declare a BudgetAlert with …": the kinds by their Terraform resource types.
  for (const [type, kind] of Object.entries(TERRAFORM_TYPES)) names.set(kind, type);
  const { findings, judged } = await judgeResources(
    planned.map((p) => ({ id: p.address, resource: p.resource })),
    policies,
    configs,
    {
      // Issue 37: examples in HCL's syntax first (they are matched as the policies wrote them), then the names.
      message: (text) => inTerraformNames(examplesInHcl(text), names),
      attribute: (policy, message, subject) => attributeOf(policy, message, byAddress.get(subject.id)!),
    },
  );
  return { violations: findings, resources: planned.length, judged };
}

/**
 * Policies whose message names another resource's field, or none of the subject's: the attribute of the
 * subject the finding is about.
 */
export const ATTRIBUTE_OF_POLICY: Readonly<Record<string, string>> = {
  // "set group_id …, or narrow it with filters.…": the missing group_id is the finding.
  "budget-alert-group-scope": "group_id",
  // The group no alert names: its id is what an alert's group_id must refer to.
  "cloud-group-budget-coverage": "id",
  // The stack's budgets add up over the cap; the largest one's amount carries the finding.
  "budget-total-cap": "amount",
};

function attributeOf(policy: string, message: string, about: PlannedResource): string | undefined {
  const fixed = ATTRIBUTE_OF_POLICY[policy];
  if (fixed) return fixed;
  const attributes = Object.keys(about.after);
  const named = attributeInMessage(message, attributes);
  if (named) return named;
  // A message that names a member (an account ID) but not its list: the list that holds it. Case-insensitively:
  // the contract lower-cases Azure subscription IDs, the plan has them as written.
  const text = message.toLowerCase();
  return attributes.find((a) => {
    const value = about.after[a];
    return Array.isArray(value) && value.some((v) => typeof v === "string" && v.length > 3 && text.includes(v.toLowerCase()));
  });
}
