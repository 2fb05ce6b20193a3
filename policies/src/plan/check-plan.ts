import type {
  EnforcementLevel,
  Policies,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
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
    readonly input: "plan" | "config",
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
  const parsedPlan = PlanJson.safeParse(plan);
  if (!parsedPlan.success)
    throw new PlanInputError("plan", `not a plan in JSON (tofu show -json): ${issues(parsedPlan.error.issues)}`, {
      cause: parsedPlan.error,
    });
  const parsedConfig = PolicyConfigFile.safeParse(config);
  if (!parsedConfig.success)
    throw new PlanInputError("config", `not a policy configuration: ${issues(parsedConfig.error.issues)}`, { cause: parsedConfig.error });
  const { configs, ignored } = policyConfigs(policies, parsedConfig.data);
  return { ...(await checkPlan(parsedPlan.data, policies, configs)), ignoredConfig: ignored };
}

const issues = (list: readonly { path: readonly PropertyKey[]; message: string }[]) =>
  list.map((i) => `${i.path.map(String).join(".") || "(top)"}: ${i.message}`).join("; ");

/** Thrown when `notApplicable` is called: the policy does not judge this resource (or stack). */
class NotApplicable extends Error {}
const notApplicable = (reason?: string): never => {
  throw new NotApplicable(reason);
};

/** What a policy reports: a message, or (as @pulumi/policy accepts) a diagnostic with its own level. */
type Reported = string | { message: string; enforcementLevel?: EnforcementLevel; urn?: string };

const isStackPolicy = (p: ResourceValidationPolicy | StackValidationPolicy): p is StackValidationPolicy => "validateStack" in p;

/**
 * Judges a Terraform plan with the policy pack's own policies (POLICIES, by default `defaultPolicies()`), with
 * their enforcement levels and configuration (the same file `--policy-pack-config` takes): every
 * resource policy on each cloudcost_* resource the plan leaves in place, every stack policy on all of them.
 * A "remediate" policy cannot change a plan, so what it would fix is a mandatory violation (as @pulumi/policy
 * reports a violation left after remediation).
 */
async function checkPlan(
  plan: PlanJson,
  policies: Policies,
  configs: ReturnType<typeof policyConfigs>["configs"],
): Promise<Omit<PlanVerdict, "ignoredConfig">> {
  const planned = plannedResources(plan);
  const byUrn = new Map(planned.map((p) => [p.resource.urn, p]));
  // Field names of every planned resource: stack messages name other resources' attributes too.
  const names = new Map<string, string>();
  for (const p of planned) attributeNames(p.after, names);
  // "declare a BudgetAlert with …": the kinds by their Terraform resource types.
  for (const [type, kind] of Object.entries(TERRAFORM_TYPES)) names.set(kind, type);
  const violations: PlanViolation[] = [];

  for (const policy of policies) {
    const { enforcementLevel, properties } = configs.get(policy.name)!;
    if (enforcementLevel === "disabled") continue;
    const level = enforcementLevel === "advisory" ? "advisory" : "mandatory";
    const getConfig = <T extends object>(): T => properties as T;
    const reporter =
      (subject: PlannedResource | undefined): ReportViolation =>
      (reported: Reported, urn?: string) => {
        const diagnostic = typeof reported === "string" ? { message: reported } : reported;
        const about = byUrn.get(diagnostic.urn ?? urn ?? "") ?? subject;
        if (!about) throw new Error(`policy "${policy.name}" reported a violation on no resource of the plan: ${diagnostic.message}`);
        const message = inTerraformNames(diagnostic.message, names);
        violations.push({
          policy: policy.name,
          enforcementLevel: diagnostic.enforcementLevel === "advisory" ? "advisory" : level,
          address: about.address,
          attribute: attributeOf(policy.name, message, about),
          message,
        });
      };
    try {
      if (isStackPolicy(policy)) {
        const args: StackValidationArgs = { resources: planned.map((p) => p.resource), stackTags: new Map(), getConfig, notApplicable };
        await policy.validateStack(args, reporter(undefined));
        continue;
      }
      const validations = policy.validateResource === undefined ? [] : [policy.validateResource].flat();
      for (const p of planned)
        for (const validate of validations) {
          const { resource } = p;
          const args: ResourceValidationArgs = {
            type: resource.type,
            props: resource.props,
            urn: resource.urn,
            name: resource.name,
            opts: resource.opts,
            stackTags: new Map(),
            isType: () => false,
            asType: () => undefined,
            getConfig,
            notApplicable,
          };
          try {
            await validate(args, reporter(p));
          } catch (error) {
            if (!(error instanceof NotApplicable)) throw error;
          }
        }
    } catch (error) {
      if (error instanceof NotApplicable) continue;
      throw new Error(`policy "${policy.name}" failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return { violations, resources: planned.length };
}

/**
 * Policies whose message names another resource's field, or none of the subject's: the attribute of the
 * subject the finding is about.
 */
const ATTRIBUTE_OF_POLICY: Readonly<Record<string, string>> = {
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
