import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, ScheduledReport, kindOfType, nativeTypeToken } from "@cloudcost/pulumi";
import { closeAllPools } from "@cloudcost/api";
import { defaultPolicies } from "@cloudcost/policies";
import {
  declareResources,
  startPolicyPack,
  startSandbox,
  type AnalyzerResourceInput,
  type DeclaredResource,
  type Diagnostic,
  type RunningPolicyPack,
  type RunningSandbox,
} from "@cloudcost/testkit";

/**
 * The policy pack judges the native plugin's resources (`cloudcost:index:<Kind>`, from any language's SDK,
 * `pulumi import` or YAML) exactly as it judges the dynamic ones: per policy, resources that violate it are
 * declared through the provider's classes, then sent to the real pack process once as the dynamic resources
 * they are and once under the native type tokens (same inputs: both front doors run one Check), and the
 * verdicts must be the same. The forecast policy reads a real sandbox.
 */
let sandbox: RunningSandbox;
let pack: RunningPolicyPack;
let groupId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  const token = await sandbox.token("read");
  pack = await startPolicyPack({ env: { CLOUDCOST_API_URL: sandbox.baseUrl, CLOUDCOST_API_TOKEN: token } });
  const { CloudCostClient } = await import("@cloudcost/api");
  groupId = (await new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } }).listGroups().next()).value!.id;
  await pack.configure({
    "budget-alert-recipients": { allowedEmailDomains: ["example.com"] },
    "scheduled-report-recipients": { allowedEmailDomains: ["example.com"] },
    "scheduled-report-delivery": { allowedFormats: ["pdf"] },
    "budget-total-cap": { maxTotalMonthlyAmount: { USD: 5000 } },
    "filter-tag-keys": { allowedTagKeys: ["team"] },
  });
});
afterAll(async () => {
  await pack?.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

const THRESHOLDS = [
  { percent: 100, basis: "actual" as const },
  { percent: 100, basis: "forecast" as const },
];
const AWS = "123456789012";

/** The same resource as the native plugin registers it: native type token, URNs (its own and its dependencies') retyped. */
function asNative(r: DeclaredResource): AnalyzerResourceInput {
  const retype = (urn: string): string => {
    const type = urn.split("::")[2] ?? "";
    const kind = kindOfType(type);
    return kind ? urn.replace(type, nativeTypeToken(kind)) : urn;
  };
  return {
    type: nativeTypeToken(kindOfType(r.type)!),
    name: r.name,
    urn: retype(r.urn),
    properties: r.properties,
    parent: r.parent,
    dependencies: (r.dependencies ?? []).map(retype),
    propertyDependencies: Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, urns]) => [k, urns.map(retype)])),
  };
}

/** A verdict without the URN's type token, so the two families compare. */
const verdict = (policy: string, diagnostics: Diagnostic[]) =>
  diagnostics
    .filter((d) => d.policyName === policy)
    .map(({ message, enforcementLevel, urn }) => ({ message, enforcementLevel, name: urn.split("::").pop() }))
    .sort((a, b) => `${a.name}${a.message}`.localeCompare(`${b.name}${b.message}`));

async function resourceVerdicts(policy: string, program: () => pulumi.Resource[]) {
  const declared = await declareResources(program);
  const judge = async (resources: AnalyzerResourceInput[]) =>
    verdict(
      policy,
      (await Promise.all(resources.map((r) => pack.analyze(r)))).flatMap((r) => r.diagnostics),
    );
  return { dynamic: await judge(declared), native: await judge(declared.map(asNative)) };
}

async function stackVerdicts(policy: string, program: () => pulumi.Resource[]) {
  const declared = await declareResources(program);
  return {
    dynamic: verdict(policy, (await pack.analyzeStack(declared)).diagnostics),
    native: verdict(policy, (await pack.analyzeStack(declared.map(asNative))).diagnostics),
  };
}

const alert = (name: string, args: Partial<ConstructorParameters<typeof BudgetAlert>[1]>) =>
  new BudgetAlert(name, { name, amount: 1000, groupId, recipients: ["finops@example.com"], thresholds: THRESHOLDS, ...args });
const report = (name: string, args: Partial<ConstructorParameters<typeof ScheduledReport>[1]>) =>
  new ScheduledReport(name, {
    name,
    report: "summary",
    format: "pdf",
    schedule: { frequency: "daily", time: "08:00", timezone: "UTC" },
    recipients: ["finops@example.com"],
    ...args,
  });

const resourceCases: [string, () => pulumi.Resource[]][] = [
  ["budget-alert-max-amount", () => [alert("huge", { amount: 1e9 })]],
  ["budget-alert-currency", () => [alert("euro", { currency: "EUR" })]],
  ["budget-alert-thresholds", () => [alert("late", { thresholds: [{ percent: 150, basis: "actual" }] })]],
  ["budget-alert-recipients", () => [alert("nobody", { recipients: [] }), alert("outsider", { recipients: ["x@other.org"] })]],
  ["budget-alert-group-scope", () => [alert("everything", { groupId: undefined })]],
  ["budget-alert-forecast", () => [alert("never-fires", { amount: 1e8 })]],
  ["scheduled-report-delivery", () => [report("csv", { format: "csv" })]],
  ["scheduled-report-recipients", () => [report("outsider", { recipients: ["x@other.org"] })]],
  ["cloud-group-members", () => [new CloudGroup("empty", { name: "Empty" })]],
  ["budget-alert-threshold-amounts", () => [alert("overshoot", { thresholds: [...THRESHOLDS, { amount: 1500, basis: "actual" }] })]],
  [
    "filter-tag-keys",
    () => [
      alert("mistagged", { filters: { tags: [{ key: "Team", values: ["web"] }] } }),
      report("mistagged-report", { filters: { tags: [{ key: "Owner", values: ["web"] }] } }),
    ],
  ],
];

const stackCases: [string, () => pulumi.Resource[]][] = [
  ["cloud-group-budget-coverage", () => [new CloudGroup("uncovered", { name: "Uncovered", awsAccountIds: [AWS] })]],
  ["budget-total-cap", () => [alert("a", { amount: 4000 }), alert("b", { amount: 4000 })]],
  [
    "cloud-group-exclusive-membership",
    () => {
      const one = new CloudGroup("one", { name: "One", awsAccountIds: [AWS] });
      const two = new CloudGroup("two", { name: "Two", awsAccountIds: [AWS] });
      return [one, two, alert("one-budget", { groupId: one.id }), alert("two-budget", { groupId: two.id })];
    },
  ],
];

describe("each resource policy gives native resources the verdict it gives dynamic ones", () => {
  test.each(resourceCases)("%s", async (policy, program) => {
    const { dynamic, native } = await resourceVerdicts(policy, program);
    expect(dynamic.length).toBeGreaterThan(0);
    expect(native).toEqual(dynamic);
  });
});

describe("each stack policy gives native resources the verdict it gives dynamic ones", () => {
  test.each(stackCases)("%s", async (policy, program) => {
    const { dynamic, native } = await stackVerdicts(policy, program);
    expect(dynamic.length).toBeGreaterThan(0);
    expect(native).toEqual(dynamic);
  });
});

test("every policy of the default set is among the cases above (a new policy cannot skip the native family unnoticed)", () => {
  // Judged on outputs only (the service's effectiveAmount during `up`): test/engine covers it through the real CLI.
  const outputsOnly = ["budget-alert-adjusted-amount"];
  const covered = [...resourceCases, ...stackCases].map(([name]) => name);
  expect(
    defaultPolicies()
      .map((p) => p.name)
      .filter((name) => !covered.includes(name) && !outputsOnly.includes(name)),
  ).toEqual([]);
});

test("a resource of another package is not judged", async () => {
  const [declared] = await declareResources(() => [alert("huge", { amount: 1e9 })]);
  const other = { ...asNative(declared!), type: "other:index:BudgetAlert" };
  expect((await pack.analyze(other)).diagnostics).toEqual([]);
});
