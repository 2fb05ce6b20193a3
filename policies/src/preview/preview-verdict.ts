import { join, relative } from "node:path";
import type { Policies, PolicyResource } from "@pulumi/policy";
import { kindOfType } from "@cloudcost/pulumi";
import { ATTRIBUTE_OF_POLICY, PlanInputError, issues, parseConfig } from "../plan/check-plan";
import { camelCase } from "../plan/terraform-names";
import type { ReportOptions } from "../plan/plan-verdict";
import { policyConfigs } from "../plan/policy-config";
import { assembleVerdict, parseWaivers } from "../verdict/assemble";
import { budgetDelta, type AlertChange, type ChangeAction } from "../verdict/budget-delta";
import { judgeResources } from "../verdict/judge";
import type { Subject, Verdict } from "../verdict/verdict";
import { PreviewDigest, programPosition, type PreviewState, type PreviewStep } from "./preview-json";

const OPTIONS: PolicyResource["opts"] = {
  protect: false,
  ignoreChanges: [],
  aliases: [],
  customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
  additionalSecretOutputs: [],
};

/** The engine's operations as one word: a replacement is logical (`replace`); same, read and refresh change nothing. */
function actionOfStep(op: string): ChangeAction {
  if (op === "create" || op === "import") return "create";
  if (op === "update") return "update";
  if (op === "delete") return "delete";
  if (op === "replace" || op === "create-replacement") return "replace";
  return "no-op";
}

/** The input a finding is about, in the program's names: the policy's fixed one, else the most specific path the message names. */
function attributeOf(policy: string, message: string, inputs: readonly string[]): string | undefined {
  const fixed = ATTRIBUTE_OF_POLICY[policy];
  if (fixed) return camelCase(fixed);
  const found: string[] = [];
  for (const m of message.matchAll(/\b([a-z][A-Za-z0-9]*)((?:\[\d+\]|\.[a-z][A-Za-z0-9]*)*)/g))
    if (inputs.includes(m[1]!)) found.push(m[1]! + m[2]!);
  return found.find((p) => p.includes("[") || p.includes(".")) ?? found[0];
}

const isCloudcost = (type: string) => kindOfType(type) !== undefined;
const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/** Every cloudcost resource the preview keeps, as policy resources with their dependencies resolved. */
function keptResources(steps: readonly PreviewStep[]): { step: PreviewStep; state: PreviewState; resource: PolicyResource }[] {
  const kept = steps.flatMap((step) =>
    step.newState && actionOfStep(step.op) !== "delete" && isCloudcost(step.newState.type) ? [{ step, state: step.newState }] : [],
  );
  const byUrn = new Map<string, PolicyResource>();
  const out = kept.map(({ step, state }) => {
    const resource: PolicyResource = {
      type: state.type,
      props: state.inputs,
      urn: step.urn,
      name: nameOf(step.urn),
      opts: OPTIONS,
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    };
    byUrn.set(step.urn, resource);
    return { step, state, resource };
  });
  for (const { state, resource } of out) {
    const resolve = (urns: readonly string[] | undefined) => (urns ?? []).flatMap((u) => (byUrn.has(u) ? [byUrn.get(u)!] : []));
    resource.dependencies = resolve(state.dependencies);
    for (const [key, urns] of Object.entries(state.propertyDependencies ?? {})) {
      const deps = resolve(urns);
      if (deps.length) resource.propertyDependencies[key] = deps;
    }
  }
  return out;
}

/** The verdict on a Pulumi preview (`pulumi preview --json --show-sames`), in every format's terms (issue 40). */
export async function previewVerdict(preview: unknown, policies: Policies, options: ReportOptions): Promise<Verdict> {
  const parsed = PreviewDigest.safeParse(preview);
  if (!parsed.success)
    throw new PlanInputError("preview", `not the JSON of \`pulumi preview --json\`: ${issues(parsed.error.issues)}`, {
      cause: parsed.error,
    });
  const configFile = parseConfig(options.config ?? {});
  const { configs, ignored } = policyConfigs(policies, configFile);
  const waivers =
    options.waivers === undefined
      ? undefined
      : parseWaivers(
          options.waivers,
          policies.map((p) => p.name),
        );
  const kept = keptResources(parsed.data.steps);
  const { findings, judged } = await judgeResources(
    kept.map((k) => ({ id: k.step.urn, resource: k.resource })),
    policies,
    configs,
    // A program's own names and syntax: the policies' messages as they are.
    { message: (text) => text, attribute: (policy, message, subject) => attributeOf(policy, message, Object.keys(subject.resource.props)) },
  );
  const subjects: Subject[] = kept.map(({ step, state }) => {
    const position = programPosition(state);
    const location =
      position && options.sourceDir
        ? {
            ...position,
            file: relative(options.sourceRoot ?? ".", join(options.sourceDir, position.file))
              .split("\\")
              .join("/"),
          }
        : position;
    return { id: step.urn, type: state.type, ...(location ? { location } : {}) };
  });
  const byUrn = new Map(kept.map((k) => [k.step.urn, k.resource]));
  const alerts: AlertChange[] = parsed.data.steps
    .filter((s) => kindOfType((s.newState ?? s.oldState)?.type ?? "") === "BudgetAlert")
    .map((s) => ({
      address: s.urn,
      action: actionOfStep(s.op),
      ...(s.oldState ? { before: s.oldState.inputs } : {}),
      ...(byUrn.has(s.urn) ? { after: byUrn.get(s.urn)! } : {}),
    }));
  // Groups by their service id, for alerts that name one by id: a kept group's id is in its old state (the
  // preview's new state of an unchanged resource is recorded before the engine copies the id over).
  const groupsById = new Map(
    kept.flatMap((k) => {
      const id = k.state.id || k.step.oldState?.id;
      return id ? [[id, k.resource] as const] : [];
    }),
  );
  const sames = parsed.data.changeSummary?.same ?? 0;
  const left = sames - parsed.data.steps.filter((st) => st.op === "same").length;
  const warnings =
    left > 0
      ? [`${left} unchanged resource(s) are not in the preview's JSON and were not judged: run \`pulumi preview --json --show-sames\``]
      : [];
  return assembleVerdict(
    {
      door: "pulumi",
      subjects,
      findings,
      judged,
      policies,
      configs,
      configFile,
      ignoredConfig: ignored,
      budget: budgetDelta(alerts, groupsById),
      warnings,
    },
    waivers,
    options.today,
  );
}
