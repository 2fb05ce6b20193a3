/**
 * Issue 32: `cloudcost-policies check-plan plan.json` — the policy pack's own policies judge a Terraform /
 * OpenTofu plan in JSON (`tofu show -json plan.out`). The command is run as a user runs it (the package's
 * bin, on the built bundles) on plans in the shape `tofu show -json` prints (format_version 1.2):
 * fixtures/policy-violations.plan.json is the HCL version of examples/policy-violations (the same 16
 * resources, attributes in snake_case, new groups' ids unknown, alerts tied to groups by references), written
 * by hand; fixtures/policy-violations.tofu-plan.json is what the real OpenTofu 1.12.6 printed
 * (`tofu plan -out plan.out && tofu show -json plan.out`) for the HCL example with terraform-provider-cloudcost
 * as of 2026-11-26 (the provider's own lane runs the command on a fresh plan).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { budgetAlertMaxAmount, defaultPolicies, judgePlan, PlanInputError, type PlanVerdict } from "@cloudcost/policies";
import { POLICY_PACK_DIR, START_TIMEOUT_MS } from "@cloudcost/testkit";

const run = promisify(execFile);
const REPO = join(POLICY_PACK_DIR, "..");
const BIN = join(POLICY_PACK_DIR, "bin", "cloudcost-policies.js");
const FIXTURE = join(__dirname, "fixtures", "policy-violations.plan.json");
const TOFU_PLAN = join(__dirname, "fixtures", "policy-violations.tofu-plan.json");
const EXAMPLE_CONFIG = join(REPO, "examples", "policy-violations", "policy-config.json");

interface Change {
  address: string;
  type: string;
  name: string;
  mode: string;
  change: { actions: string[]; after: Record<string, unknown> | null; after_unknown?: Record<string, unknown> };
}
interface Plan {
  format_version: string;
  resource_changes: Change[];
  configuration: { root_module: { resources: { address: string; expressions?: Record<string, unknown> }[] } };
}

const fixture = (): Plan => JSON.parse(readFileSync(FIXTURE, "utf8")) as Plan;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cloudcost-check-plan-"));
  // The bin loads dist/check-plan.js and dist/library.bundle.js: bundle the current sources (what `npm run build` does).
  execFileSync(process.execPath, [join(POLICY_PACK_DIR, "scripts", "bundle.mjs")], { stdio: "pipe", timeout: START_TIMEOUT_MS });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `cloudcost-policies ARGS`; never throws on a non-zero exit. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      cwd: dir,
      timeout: START_TIMEOUT_MS,
      env: { ...process.env, CLOUDCOST_API_URL: "" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function write(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

/** The fixture with only the resources named (by address) kept, and their configuration. */
function only(plan: Plan, ...addresses: string[]): Plan {
  return {
    ...plan,
    resource_changes: plan.resource_changes.filter((c) => addresses.includes(c.address)),
    configuration: { root_module: { resources: plan.configuration.root_module.resources.filter((r) => addresses.includes(r.address)) } },
  };
}

const change = (plan: Plan, address: string): Change => plan.resource_changes.find((c) => c.address === address)!;

const summary = (verdict: PlanVerdict) =>
  verdict.violations.map((v) => `${v.enforcementLevel} ${v.address} ${v.attribute ?? "-"} ${v.policy}`).sort();

test("the HCL version of policy-violations: every violation the Pulumi example gets, by address and attribute in Terraform's names; exit 1", async () => {
  const { code, stdout, stderr } = await cli("check-plan", FIXTURE, "--config", EXAMPLE_CONFIG, "--json");
  expect([code, stderr]).toEqual([1, ""]);
  const verdict = JSON.parse(stdout) as PlanVerdict;
  expect(verdict.resources).toBe(16);
  // examples/policy-violations/README.md's table, resource by resource (the same 13 findings).
  expect(summary(verdict)).toEqual(
    [
      "mandatory cloudcost_cloud_group.empty azure_subscription_ids cloud-group-members",
      "mandatory cloudcost_cloud_group.unwatched id cloud-group-budget-coverage",
      "advisory cloudcost_cloud_group.overlap aws_account_ids cloud-group-exclusive-membership",
      "mandatory cloudcost_budget_alert.org_wide_budget group_id budget-alert-group-scope",
      "mandatory cloudcost_budget_alert.euro_budget currency budget-alert-currency",
      "mandatory cloudcost_budget_alert.huge_budget amount budget-alert-max-amount",
      "mandatory cloudcost_budget_alert.huge_budget amount budget-total-cap",
      "mandatory cloudcost_budget_alert.silent_budget recipients budget-alert-recipients",
      "mandatory cloudcost_budget_alert.late_budget thresholds budget-alert-thresholds",
      "mandatory cloudcost_budget_alert.overshoot_budget thresholds[2] budget-alert-threshold-amounts",
      "mandatory cloudcost_budget_alert.mistagged_budget filters.tags[0].key filter-tag-keys",
      "mandatory cloudcost_scheduled_report.pdf_report format scheduled-report-delivery",
      "mandatory cloudcost_scheduled_report.leaky_report recipients[0] scheduled-report-recipients",
    ].sort(),
  );
  // Messages use Terraform's attribute names and resource types; the policies' configuration keeps its own names.
  const messages = verdict.violations.map((v) => v.message).join("\n");
  expect(messages).toContain("set group_id to a Cloud Group's id");
  expect(messages).toContain("filters.account_ids");
  expect(messages).toContain("raise maxMonthlyAmount.USD");
  // Issue 37 §4: the examples a message suggests are in HCL's syntax, not the Pulumi program's.
  expect(messages).toContain("declare a cloudcost_budget_alert with group_id = cloudcost_cloud_group.unwatched.id");
  expect(messages).toContain("(e.g. group_id = cloudcost_cloud_group.group.id)");
  expect(messages).toContain('add e.g. { percent = 100, basis = "forecast" } to thresholds');
  expect(messages).not.toMatch(/group_id: |\{ percent: /);
  expect(messages).not.toMatch(/\b(groupId|awsAccountIds|azureSubscriptionIds|accountIds)\b/);
});

test("the plan the real `tofu show -json` printed for the HCL example: the same 13 findings", async () => {
  const { code, stdout, stderr } = await cli("check-plan", TOFU_PLAN, "--config", EXAMPLE_CONFIG, "--json");
  expect([code, stderr]).toEqual([1, ""]);
  const verdict = JSON.parse(stdout) as PlanVerdict;
  expect(verdict.resources).toBe(16);
  // The provider answers thresholds sorted (actual before forecast), so the absolute one is thresholds[0] there.
  expect(summary(verdict).map((line) => line.replace(/thresholds\[\d+\]/, "thresholds[i]"))).toEqual(
    [
      "mandatory cloudcost_cloud_group.empty azure_subscription_ids cloud-group-members",
      "mandatory cloudcost_cloud_group.unwatched id cloud-group-budget-coverage",
      "advisory cloudcost_cloud_group.overlap aws_account_ids cloud-group-exclusive-membership",
      "mandatory cloudcost_budget_alert.org_wide_budget group_id budget-alert-group-scope",
      "mandatory cloudcost_budget_alert.euro_budget currency budget-alert-currency",
      "mandatory cloudcost_budget_alert.huge_budget amount budget-alert-max-amount",
      "mandatory cloudcost_budget_alert.huge_budget amount budget-total-cap",
      "mandatory cloudcost_budget_alert.silent_budget recipients budget-alert-recipients",
      "mandatory cloudcost_budget_alert.late_budget thresholds budget-alert-thresholds",
      "mandatory cloudcost_budget_alert.overshoot_budget thresholds[i] budget-alert-threshold-amounts",
      "mandatory cloudcost_budget_alert.mistagged_budget filters.tags[0].key filter-tag-keys",
      "mandatory cloudcost_scheduled_report.pdf_report format scheduled-report-delivery",
      "mandatory cloudcost_scheduled_report.leaky_report recipients[0] scheduled-report-recipients",
    ].sort(),
  );
});

test("the text report: one line per violation with level, address, attribute, message and policy, then the count", async () => {
  const { code, stdout } = await cli("check-plan", FIXTURE, "--config", EXAMPLE_CONFIG);
  expect(code).toBe(1);
  const lines = stdout.trimEnd().split("\n");
  // 13 findings, the budget the plan adds (issue 40), the count.
  expect(lines).toHaveLength(15);
  expect(lines).toContain(
    "budget: +166,100 USD/month (created 166,100 USD, changed 0 USD, removed 0 USD); +2,000 EUR/month (created 2,000 EUR, changed 0 EUR, removed 0 EUR)",
  );
  expect(lines).toContain(
    'mandatory: cloudcost_budget_alert.euro_budget: currency: currency "EUR" is not allowed: set currency to one of USD (budget-alert-currency)',
  );
  expect(lines.at(-1)).toBe("16 cloudcost resource(s) judged: 12 mandatory and 1 advisory violation(s); the plan must not be applied.");
});

test("a plan that breaks no policy exits 0", async () => {
  const file = write("clean.json", only(fixture(), "cloudcost_cloud_group.checkout", "cloudcost_budget_alert.checkout_budget"));
  const { code, stdout } = await cli("check-plan", file, "--config", EXAMPLE_CONFIG);
  expect([code, stdout]).toEqual([
    0,
    "budget: +3,000 USD/month (created 3,000 USD, changed 0 USD, removed 0 USD)\n2 cloudcost resource(s) judged: no policy violation.\n",
  ]);
});

test("without the alert that names it, the group is reported: the reference in the configuration is what ties them", async () => {
  const plan = only(fixture(), "cloudcost_cloud_group.checkout", "cloudcost_budget_alert.checkout_budget");
  // The same alert, its group_id written as a literal id that no planned group has.
  change(plan, "cloudcost_budget_alert.checkout_budget").change.after!.group_id = "grp_somewhere_else";
  delete change(plan, "cloudcost_budget_alert.checkout_budget").change.after_unknown!.group_id;
  plan.configuration.root_module.resources[1]!.expressions!.group_id = { constant_value: "grp_somewhere_else" };
  const { code, stdout } = await cli("check-plan", write("unreferenced.json", plan), "--json");
  expect(code).toBe(1);
  expect(summary(JSON.parse(stdout) as PlanVerdict)).toEqual(["mandatory cloudcost_cloud_group.checkout id cloud-group-budget-coverage"]);
});

test("resources the plan deletes are not judged; unchanged ones are", async () => {
  const plan = only(
    fixture(),
    "cloudcost_cloud_group.checkout",
    "cloudcost_budget_alert.checkout_budget",
    "cloudcost_budget_alert.euro_budget",
  );
  const euro = change(plan, "cloudcost_budget_alert.euro_budget");
  euro.change = { actions: ["delete"], after: null };
  const checkout = change(plan, "cloudcost_cloud_group.checkout");
  checkout.change = { actions: ["no-op"], after: { ...checkout.change.after!, id: "grp_1" } };
  const kept = await cli("check-plan", write("delete.json", plan));
  expect([kept.code, kept.stdout.split("\n").at(-2)]).toEqual([0, "2 cloudcost resource(s) judged: no policy violation."]);

  // Unchanged: every value known, the group's id among them.
  const planned = fixture().resource_changes.find((c) => c.address === euro.address)!.change.after;
  euro.change = { actions: ["no-op"], after: { ...planned, id: "alr_1", group_id: "grp_1" } };
  const unchanged = await cli("check-plan", write("no-op.json", plan), "--json");
  expect(unchanged.code).toBe(1);
  expect(summary(JSON.parse(unchanged.stdout) as PlanVerdict)).toEqual([
    "mandatory cloudcost_budget_alert.euro_budget currency budget-alert-currency",
  ]);
});

test("a value the plan does not know yet is not judged (as in a Pulumi preview), and nothing else is skipped", async () => {
  const plan = only(
    fixture(),
    "cloudcost_cloud_group.checkout",
    "cloudcost_budget_alert.huge_budget",
    "cloudcost_budget_alert.euro_budget",
  );
  const huge = change(plan, "cloudcost_budget_alert.huge_budget");
  delete huge.change.after!.amount;
  huge.change.after_unknown!.amount = true;
  const { code, stdout } = await cli("check-plan", write("unknown.json", plan), "--json");
  expect(code).toBe(1);
  expect(summary(JSON.parse(stdout) as PlanVerdict)).toEqual([
    "mandatory cloudcost_budget_alert.euro_budget currency budget-alert-currency",
  ]);
});

test("resources in modules and with count keep their full address; references inside a module resolve within it", async () => {
  const plan = only(fixture(), "cloudcost_cloud_group.checkout", "cloudcost_budget_alert.euro_budget");
  const [group, alert] = plan.resource_changes as [Change, Change];
  group.address = "module.team.cloudcost_cloud_group.checkout[0]";
  alert.address = "module.team.cloudcost_budget_alert.euro_budget[0]";
  const resources = plan.configuration.root_module.resources;
  const inModule = {
    resources: resources.map((r) => ({ ...r })),
  };
  (plan.configuration as unknown as { root_module: unknown }).root_module = {
    module_calls: { team: { source: "./team", module: inModule } },
  };
  const { code, stdout } = await cli("check-plan", write("module.json", plan), "--json");
  expect(code).toBe(1);
  // The group is covered by the alert through the module's reference; the alert's currency is reported under its full address.
  expect(summary(JSON.parse(stdout) as PlanVerdict)).toEqual([
    "mandatory module.team.cloudcost_budget_alert.euro_budget[0] currency budget-alert-currency",
  ]);
});

test("a finding about a member names the list that holds it, however the plan spells the ID", async () => {
  const plan = only(
    fixture(),
    "cloudcost_cloud_group.checkout",
    "cloudcost_budget_alert.checkout_budget",
    "cloudcost_cloud_group.overlap",
    "cloudcost_budget_alert.overlap_budget",
  );
  // The overlap is now only the Azure subscription, in upper case in the group reported (the contract lower-cases it).
  change(plan, "cloudcost_cloud_group.checkout").change.after!.azure_subscription_ids = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"];
  change(plan, "cloudcost_cloud_group.overlap").change.after!.azure_subscription_ids = ["0B1F6471-1BF0-4DDA-AEC3-CB9272F09590"];
  change(plan, "cloudcost_cloud_group.overlap").change.after!.aws_account_ids = ["444455556666"];
  const { code, stdout } = await cli("check-plan", write("azure-overlap.json", plan), "--json");
  expect(code).toBe(0);
  expect(summary(JSON.parse(stdout) as PlanVerdict)).toEqual([
    "advisory cloudcost_cloud_group.overlap azure_subscription_ids cloud-group-exclusive-membership",
  ]);
});

test("the policy configuration file of `pulumi preview --policy-pack-config` sets levels and properties", async () => {
  const advisory = await cli("check-plan", FIXTURE, "--config", write("all-advisory.json", { all: "advisory" }), "--json");
  expect(advisory.code).toBe(0);
  const verdict = JSON.parse(advisory.stdout) as PlanVerdict;
  expect(verdict.violations.length).toBeGreaterThan(0);
  expect(new Set(verdict.violations.map((v) => v.enforcementLevel))).toEqual(new Set(["advisory"]));

  const config = {
    "budget-alert-currency": { allowedCurrencies: ["USD", "EUR"] },
    "budget-alert-max-amount": "disabled",
    "cloud-group-members": { enforcementLevel: "advisory" },
  };
  const tuned = await cli("check-plan", FIXTURE, "--config", write("tuned.json", config), "--json");
  const policies = (JSON.parse(tuned.stdout) as PlanVerdict).violations.map((v) => `${v.policy} ${v.enforcementLevel}`);
  expect(policies).not.toContain("budget-alert-currency mandatory");
  expect(policies).not.toContain("budget-alert-max-amount mandatory");
  expect(policies).toContain("cloud-group-members advisory");
});

test("a configuration entry for a policy the set does not have is ignored, as pulumi ignores it, with a warning", async () => {
  const file = only(fixture(), "cloudcost_cloud_group.checkout", "cloudcost_budget_alert.checkout_budget");
  const { code, stderr } = await cli(
    "check-plan",
    write("clean2.json", file),
    "--config",
    write("extra.json", { "our-own-policy": "mandatory" }),
  );
  expect(code).toBe(0);
  expect(stderr).toBe(
    'cloudcost-policies: warning: the policy configuration names no policy called "our-own-policy"; ignored, as pulumi does\n',
  );
});

describe("input the command cannot judge: exit 2, a message naming the file and the problem, no stack trace", () => {
  test.each<[string, () => string[], RegExp]>([
    [
      "a saved (binary) plan",
      () => ["check-plan", write("plan.out", "PK\u0003\u0004binary")],
      /plan\.out is not JSON \(a saved plan is binary: run `tofu show -json plan\.out > plan\.json` first\)/,
    ],
    [
      "JSON that is no plan",
      () => ["check-plan", write("other.json", { resources: [] })],
      /other\.json: not a plan in JSON \(tofu show -json\): format_version: /,
    ],
    [
      "a plan of another format version",
      () => ["check-plan", write("v2.json", { ...fixture(), format_version: "2.0" })],
      /v2\.json: .*format_version: format_version 1\.x/,
    ],
    ["a missing file", () => ["check-plan", join(dir, "nowhere.json")], /cannot read .*nowhere\.json: ENOENT/],
    [
      "a bad enforcement level",
      () => ["check-plan", FIXTURE, "--config", write("bad-level.json", { "budget-alert-currency": "fatal" })],
      /bad-level\.json: not a policy configuration: budget-alert-currency/,
    ],
    [
      "a property the policy's schema refuses",
      () => ["check-plan", FIXTURE, "--config", write("bad-prop.json", { "budget-alert-recipients": { minRecipients: "three" } })],
      /policy "budget-alert-recipients" failed: policy configuration of "budget-alert-recipients" is invalid: minRecipients: /,
    ],
    ["no plan", () => ["check-plan"], /the plan file is missing/],
    ["an unknown command", () => ["lint", FIXTURE], /unknown command "lint"/],
  ])("%s", async (_, args, expected) => {
    const { code, stdout, stderr } = await cli(...args());
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toMatch(expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

test("the library judges a plan with a team's own policy set (the factories, tuned)", async () => {
  const policies = [budgetAlertMaxAmount({ defaults: { maxMonthlyAmount: { USD: 2500 } } })];
  const verdict = await judgePlan(fixture(), policies);
  expect(summary(verdict)).toEqual([
    "mandatory cloudcost_budget_alert.checkout_budget amount budget-alert-max-amount",
    "mandatory cloudcost_budget_alert.huge_budget amount budget-alert-max-amount",
    "mandatory cloudcost_budget_alert.org_wide_budget amount budget-alert-max-amount",
  ]);
  await expect(judgePlan({ format_version: "1.2", resource_changes: [{ address: "" }] }, defaultPolicies())).rejects.toThrow(
    PlanInputError,
  );
});
