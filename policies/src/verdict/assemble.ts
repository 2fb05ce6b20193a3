import type { Policies } from "@pulumi/policy";
import { z } from "@cloudcost/api";
import { PlanInputError, issues } from "../plan/check-plan";
import { REPORT_POLICIES, type PolicyConfig, type PolicyConfigFile } from "../plan/policy-config";
import { BUDGET_INCREASE_CAP, BUDGET_INCREASE_CAP_DESCRIPTION, increaseOverCap, type BudgetDelta } from "./budget-delta";
import type { RawFinding } from "./judge";
import { applyWaivers, unknownPolicies, WaiversFile } from "./waivers";
import { blocks, type Door, type Finding, type Level, type PolicyInfo, type Subject, type Verdict } from "./verdict";

/** What a door judged, before levels, waivers and the change's own policy make it a verdict. */
export interface Judgement {
  door: Door;
  subjects: Subject[];
  findings: RawFinding[];
  judged: { address: string; policy: string }[];
  policies: Policies;
  configs: ReadonlyMap<string, PolicyConfig>;
  configFile: PolicyConfigFile;
  ignoredConfig: string[];
  budget: BudgetDelta;
  warnings?: string[];
}

const Level = z.enum(["advisory", "mandatory", "remediate", "disabled"]);
const CapConfig = z
  .object({
    maxMonthlyIncrease: z.record(z.string().regex(/^[A-Z]{3}$/), z.number().nonnegative()),
    // Required: the Pulumi CLI sends every entry of the file to the pack, and one without a level is refused
    // there ("invalid enforcement level"), so the one file could no longer serve `pulumi preview`.
    enforcementLevel: Level,
    waivable: z.boolean().optional(),
  })
  .strict();

/** The waivers file (parsed JSON) checked: a waiver without a reason, owner or expiry, or naming no policy, is refused. */
export function parseWaivers(file: unknown, policyNames: readonly string[]): WaiversFile {
  const parsed = WaiversFile.safeParse(file);
  if (!parsed.success) throw new PlanInputError("waivers", `refused: ${issues(parsed.error.issues)}`, { cause: parsed.error });
  const unknown = unknownPolicies(parsed.data, [...policyNames, ...REPORT_POLICIES]);
  if (unknown.length) throw new PlanInputError("waivers", `refused: ${unknown.join("; ")}`);
  return parsed.data;
}

function levelOf(enforcementLevel: string, waivable: boolean): Level {
  if (enforcementLevel === "advisory") return "advisory";
  return waivable ? "waivable" : "mandatory";
}

/** The budget-increase-cap findings: carried by the alert that adds the most, in each currency over the cap. */
function capFindings(judgement: Judgement): { findings: Finding[]; info?: PolicyInfo } {
  const entry = judgement.configFile[BUDGET_INCREASE_CAP];
  if (entry === undefined) return { findings: [] };
  const parsed = CapConfig.safeParse(entry);
  if (!parsed.success)
    throw new PlanInputError("config", `${BUDGET_INCREASE_CAP}: ${issues(parsed.error.issues)}`, { cause: parsed.error });
  const { enforcementLevel } = parsed.data;
  const info = {
    name: BUDGET_INCREASE_CAP,
    description: BUDGET_INCREASE_CAP_DESCRIPTION,
    level: enforcementLevel === "disabled" ? "disabled" : levelOf(enforcementLevel, parsed.data.waivable ?? false),
  } as const;
  if (info.level === "disabled") return { findings: [], info };
  const findings = increaseOverCap(judgement.budget, parsed.data.maxMonthlyIncrease).map(({ currency, message }): Finding => {
    const largest = judgement.budget.alerts
      .filter((a) => a.currency === currency)
      .sort((a, b) => (b.after ?? 0) - (b.before ?? 0) - ((a.after ?? 0) - (a.before ?? 0)))[0];
    const address = largest?.address ?? "(change)";
    return { policy: BUDGET_INCREASE_CAP, enforcementLevel: info.level as Level, address, attribute: "amount", message };
  });
  return { findings, info };
}

/** The verdict: levels (waivable from the configuration), locations, waivers as of TODAY, and the change's own policy. */
export function assembleVerdict(judgement: Judgement, waivers: WaiversFile | undefined, today: string): Verdict {
  const locations = new Map(judgement.subjects.map((s) => [s.id, s.location]));
  const policies: PolicyInfo[] = judgement.policies.map((p) => {
    const config = judgement.configs.get(p.name)!;
    return {
      name: p.name,
      description: p.description,
      level: config.enforcementLevel === "disabled" ? "disabled" : levelOf(config.enforcementLevel, config.waivable),
    };
  });
  const findings: Finding[] = judgement.findings.map((f) => {
    const location = locations.get(f.address);
    return {
      policy: f.policy,
      enforcementLevel: levelOf(f.enforcementLevel, judgement.configs.get(f.policy)?.waivable ?? false),
      address: f.address,
      ...(f.attribute ? { attribute: f.attribute } : {}),
      message: f.message,
      ...(location ? { location } : {}),
    };
  });
  const cap = capFindings(judgement);
  if (cap.info) policies.push(cap.info);
  findings.push(...cap.findings.map((f) => ({ ...f, ...(locations.get(f.address) ? { location: locations.get(f.address)! } : {}) })));
  const judged = [...judgement.judged];
  if (cap.info && cap.info.level !== "disabled")
    judged.push(...judgement.budget.alerts.map((a) => ({ address: a.address, policy: BUDGET_INCREASE_CAP })));
  const sorted = applyWaivers(findings, waivers, today);
  return {
    door: judgement.door,
    resources: judgement.subjects.length,
    subjects: judgement.subjects,
    policies,
    violations: sorted.violations,
    waived: sorted.waived,
    judged,
    waivers: { unmatched: sorted.unmatched, expired: sorted.expired },
    budget: judgement.budget,
    ignoredConfig: judgement.ignoredConfig,
    warnings: judgement.warnings ?? [],
    passed: !sorted.violations.some(blocks),
  };
}
