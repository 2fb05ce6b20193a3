import type { Policies, PolicyResource } from "@pulumi/policy";
import { resourceBlocks, blockOf } from "../locate/hcl-blocks";
import { assembleVerdict, parseWaivers } from "../verdict/assemble";
import { budgetDelta, type AlertChange, type ChangeAction } from "../verdict/budget-delta";
import type { Verdict } from "../verdict/verdict";
import { checkPlan, parseConfig, parsePlan } from "./check-plan";
import { TERRAFORM_TYPES, plannedResources, toInputs } from "./plan-resources";
import type { PlanJson } from "./plan-json";
import { policyConfigs } from "./policy-config";

/** What a report on a plan needs beside the plan: all optional but TODAY. */
export interface ReportOptions {
  /** The parsed policy configuration file. */
  config?: unknown;
  /** The parsed waivers file. */
  waivers?: unknown;
  /** Where the `.tf` files are (default: none looked up) and the root their paths are relative to. */
  sourceDir?: string;
  sourceRoot?: string;
  /** YYYY-MM-DD (UTC): when waivers expire. */
  today: string;
}

/** Terraform's actions as one word (`["delete","create"]` is a replace). */
export function actionOf(actions: readonly string[]): ChangeAction {
  if (actions.includes("delete") && actions.includes("create")) return "replace";
  const [only] = actions;
  return only === "create" || only === "update" || only === "delete" ? only : "no-op";
}

function alertChanges(plan: PlanJson, planned: Map<string, PolicyResource>): AlertChange[] {
  return plan.resource_changes
    .filter((c) => c.mode === "managed" && TERRAFORM_TYPES[c.type] === "BudgetAlert")
    .map((c) => ({
      address: c.address,
      action: actionOf(c.change.actions),
      ...(c.change.before ? { before: toInputs(c.change.before, undefined) as object } : {}),
      ...(planned.has(c.address) ? { after: planned.get(c.address)! } : {}),
    }));
}

/** The verdict on a Terraform/OpenTofu plan (`tofu show -json`), in every format's terms (issue 40). */
export async function planVerdict(plan: unknown, policies: Policies, options: ReportOptions): Promise<Verdict> {
  const parsed = parsePlan(plan);
  const configFile = parseConfig(options.config ?? {});
  const { configs, ignored } = policyConfigs(policies, configFile);
  const waivers =
    options.waivers === undefined
      ? undefined
      : parseWaivers(
          options.waivers,
          policies.map((p) => p.name),
        );
  const { violations, judged } = await checkPlan(parsed, policies, configs);
  const planned = plannedResources(parsed);
  const byAddress = new Map(planned.map((p) => [p.address, p.resource]));
  // Alerts that name an existing group by its id: the group's members, when the plan keeps the group.
  const groupsById = new Map(planned.flatMap((p) => (typeof p.after.id === "string" ? [[p.after.id, p.resource] as const] : [])));
  const blocks = options.sourceDir ? await resourceBlocks(options.sourceDir, options.sourceRoot) : new Map();
  const subjects = planned.map((p) => {
    const location = blockOf(p.address, blocks);
    const type =
      Object.keys(TERRAFORM_TYPES).find((t) => p.address.replace(/^(module\.[^.]+\.)*/, "").startsWith(`${t}.`)) ?? p.resource.type;
    return { id: p.address, type, ...(location ? { location } : {}) };
  });
  return assembleVerdict(
    {
      door: "terraform",
      subjects,
      findings: violations,
      judged,
      policies,
      configs,
      configFile,
      ignoredConfig: ignored,
      budget: budgetDelta(alertChanges(parsed, byAddress), groupsById),
    },
    waivers,
    options.today,
  );
}
