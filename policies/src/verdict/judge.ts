import type {
  EnforcementLevel,
  Policies,
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import type { PolicyConfig } from "../plan/policy-config";

/*
 * The policies themselves judging resources outside the Pulumi engine (ARCHITECTURE.md: no copies): each
 * one's `validateResource`/`validateStack` with the arguments @pulumi/policy would give. Both doors call it:
 * `check-plan` with a plan's resources, `check-preview` with a preview's.
 */

/** A resource to judge: its id in the door's names (address or URN) and the resource as a policy sees it. */
export interface Judged {
  id: string;
  resource: PolicyResource;
}

/** One finding before waivers: the door's hooks have named the attribute and rewritten the message. */
export interface RawFinding {
  policy: string;
  enforcementLevel: "advisory" | "mandatory";
  address: string;
  attribute?: string;
  message: string;
}

/** How a door speaks: a message in its names and syntax, and the attribute a finding is about. */
export interface DoorHooks {
  message(text: string): string;
  attribute(policy: string, message: string, subject: Judged): string | undefined;
}

/** Thrown when `notApplicable` is called: the policy does not judge this resource (or stack). */
class NotApplicable extends Error {}
const notApplicable = (reason?: string): never => {
  throw new NotApplicable(reason);
};

/** What a policy reports: a message, or (as @pulumi/policy accepts) a diagnostic with its own level. */
type Reported = string | { message: string; enforcementLevel?: EnforcementLevel; urn?: string };

const isStackPolicy = (p: ResourceValidationPolicy | StackValidationPolicy): p is StackValidationPolicy => "validateStack" in p;

/**
 * Every resource policy on each resource, every stack policy on all of them, with their levels and
 * configuration (CONFIGS). A "remediate" policy cannot change a plan or a preview's JSON, so what it would fix
 * is a mandatory violation (as @pulumi/policy reports a violation left after remediation).
 */
export async function judgeResources(
  subjects: readonly Judged[],
  policies: Policies,
  configs: ReadonlyMap<string, PolicyConfig>,
  hooks: DoorHooks,
): Promise<{ findings: RawFinding[]; judged: { address: string; policy: string }[] }> {
  const byUrn = new Map(subjects.map((s) => [s.resource.urn, s]));
  const findings: RawFinding[] = [];
  const judged: { address: string; policy: string }[] = [];

  for (const policy of policies) {
    const { enforcementLevel, properties } = configs.get(policy.name)!;
    if (enforcementLevel === "disabled") continue;
    const level = enforcementLevel === "advisory" ? "advisory" : "mandatory";
    const getConfig = <T extends object>(): T => properties as T;
    const reporter =
      (subject: Judged | undefined): ReportViolation =>
      (reported: Reported, urn?: string) => {
        const diagnostic = typeof reported === "string" ? { message: reported } : reported;
        const about = byUrn.get(diagnostic.urn ?? urn ?? "") ?? subject;
        if (!about) throw new Error(`policy "${policy.name}" reported a violation on no resource of the change: ${diagnostic.message}`);
        const message = hooks.message(diagnostic.message);
        findings.push({
          policy: policy.name,
          enforcementLevel: diagnostic.enforcementLevel === "advisory" ? "advisory" : level,
          address: about.id,
          attribute: hooks.attribute(policy.name, message, about),
          message,
        });
      };
    try {
      if (isStackPolicy(policy)) {
        const args: StackValidationArgs = { resources: subjects.map((s) => s.resource), stackTags: new Map(), getConfig, notApplicable };
        await policy.validateStack(args, reporter(undefined));
        // A stack policy judges the whole set: each resource is one of its cases.
        judged.push(...subjects.map((s) => ({ address: s.id, policy: policy.name })));
        continue;
      }
      const validations = policy.validateResource === undefined ? [] : [policy.validateResource].flat();
      for (const subject of subjects) {
        let applies = false;
        for (const validate of validations) {
          const { resource } = subject;
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
            await validate(args, reporter(subject));
            applies = true;
          } catch (error) {
            if (!(error instanceof NotApplicable)) throw error;
          }
        }
        if (applies) judged.push({ address: subject.id, policy: policy.name });
      }
    } catch (error) {
      if (error instanceof NotApplicable) continue;
      throw new Error(`policy "${policy.name}" failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  return { findings, judged };
}
