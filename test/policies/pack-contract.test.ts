import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import {
  DeclaredResource,
  POLICY_PACK_DIR,
  PolicyConfigError,
  PolicyPackConfigFile,
  RunningPolicyPack,
  declareResources,
  startPolicyPack,
} from "@cloudcost/testkit";

/**
 * The real pack process over the Analyzer protocol, fed with resources declared through the provider's
 * real classes (type tokens and property names come from the provider, not from this file).
 */
let pack: RunningPolicyPack;
beforeAll(async () => {
  pack = await startPolicyPack({ env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
});
afterAll(() => pack.stop());

const WEBHOOK = "https://hooks.example.com/very-secret-path";
const AWS = "123456789012";
const GOOD_THRESHOLDS = [
  { percent: 100, basis: "actual" as const },
  { percent: 100, basis: "forecast" as const },
];

function byName(declared: DeclaredResource[], name: string): DeclaredResource {
  const found = declared.find((d) => d.name === name);
  if (!found) throw new Error(`resource ${name} was not declared`);
  return found;
}
const policiesOf = (r: { diagnostics: { policyName: string }[] }) => r.diagnostics.map((d) => d.policyName).sort();

describe("GetAnalyzerInfo", () => {
  test("lists every policy with its enforcement level and configuration schema", async () => {
    const info = await pack.info();
    expect(info.name).toBe("cloudcost-budgets");
    expect(info.supportsConfig).toBe(true);
    const levels = Object.fromEntries(info.policies.map((p) => [p.name, p.enforcementLevel]));
    expect(levels).toEqual({
      "budget-alert-max-amount": "mandatory",
      "budget-alert-currency": "mandatory",
      "budget-alert-thresholds": "mandatory",
      "budget-alert-recipients": "mandatory",
      "budget-alert-group-scope": "mandatory",
      "budget-alert-forecast": "advisory",
      "scheduled-report-recipients": "mandatory",
      "scheduled-report-delivery": "mandatory",
      "cloud-group-members": "mandatory",
      "cloud-group-budget-coverage": "mandatory",
      "budget-total-cap": "mandatory",
      "cloud-group-exclusive-membership": "advisory",
      // Issue 27.
      "budget-alert-threshold-amounts": "mandatory",
      "filter-tag-keys": "mandatory",
      "budget-alert-adjusted-amount": "mandatory",
    });
    const schema = (name: string) => info.policies.find((p) => p.name === name)!.configSchema!.properties;
    expect(schema("budget-alert-max-amount").maxMonthlyAmount).toMatchObject({ type: "object", default: { USD: 100000 } });
    expect(schema("budget-alert-thresholds").requiredThresholds).toMatchObject({ default: [{ percent: 100, basis: "actual" }] });
    expect(schema("budget-alert-forecast")).toHaveProperty("apiUrl");
    expect(schema("budget-alert-forecast").apiUrl).not.toHaveProperty("default");
  });
});

describe("Configure", () => {
  afterEach(() => pack.configure());

  test("applies schema defaults and overrides as the CLI does", async () => {
    const sent = await pack.configure({
      all: "advisory",
      "budget-alert-currency": { enforcementLevel: "mandatory", allowedCurrencies: ["EUR"] },
    });
    expect(sent["budget-alert-currency"]).toEqual({ enforcementLevel: "mandatory", properties: { allowedCurrencies: ["EUR"] } });
    expect(sent["budget-alert-max-amount"]).toEqual({ enforcementLevel: "advisory", properties: { maxMonthlyAmount: { USD: 100000 } } });
  });

  test("rejects configuration that does not fit the schema, naming policy and field", async () => {
    const error: unknown = await pack
      .configure({ "budget-alert-max-amount": { maxMonthlyAmount: { usd: -5 } }, "budget-alert-recipients": { minRecipients: "one" } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(PolicyConfigError);
    const problems = (error as PolicyConfigError).problems;
    expect(problems.some((p) => p.startsWith("budget-alert-max-amount: maxMonthlyAmount"))).toBe(true);
    expect(problems.some((p) => p.startsWith("budget-alert-recipients: minRecipients"))).toBe(true);
    await expect(pack.configure({ "budget-alert-currency": "strict" as never })).rejects.toThrow(/not a valid enforcement level/);
  });

  test("enforcement levels reach the diagnostics; disabled policies stay silent", async () => {
    const declared = await declareResources(() => [
      new BudgetAlert("eur", {
        name: "eur",
        amount: 10,
        currency: "EUR",
        groupId: "grp_0123456789",
        recipients: ["a@example.com"],
        thresholds: GOOD_THRESHOLDS,
      }),
    ]);
    await pack.configure({ "budget-alert-currency": "advisory" });
    expect((await pack.analyze(declared[0]!)).diagnostics).toEqual([
      expect.objectContaining({ policyName: "budget-alert-currency", enforcementLevel: "advisory" }),
    ]);
    await pack.configure({ all: "disabled" });
    expect((await pack.analyze(declared[0]!)).diagnostics).toEqual([]);
  });
});

describe("Analyze", () => {
  beforeAll(() =>
    pack.configure({
      "budget-alert-recipients": { allowedEmailDomains: ["example.com"] },
      "scheduled-report-delivery": { allowedFormats: ["pdf"] },
    }),
  );

  test("a compliant alert, report and group pass", async () => {
    const declared = await declareResources(() => {
      const group = new CloudGroup("team", { name: "Team", awsAccountIds: [AWS] });
      const alert = new BudgetAlert("team-budget", {
        name: "Team",
        amount: 9000,
        period: "quarterly",
        groupId: group.id,
        recipients: ["FinOps@Example.com"],
        thresholds: GOOD_THRESHOLDS,
        webhookUrl: WEBHOOK,
      });
      const report = new ScheduledReport("weekly", {
        name: "Weekly",
        report: "summary",
        groupId: group.id,
        schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
        format: "pdf",
        recipients: ["team@eu.example.com"],
      });
      return [group, alert, report];
    });
    for (const r of declared) expect((await pack.analyze(r)).diagnostics).toEqual([]);
  });

  test("a bad alert gets one diagnostic per broken rule, each saying what to change, and never the secret", async () => {
    const [alert] = await declareResources(() => [
      new BudgetAlert("bad", {
        name: "Bad",
        amount: 1_500_000,
        period: "annual",
        currency: "EUR",
        recipients: ["me@gmail.com"],
        webhookUrl: WEBHOOK,
      }),
    ]);
    expect(alert!.type).toBe(BudgetAlert.__pulumiType);
    expect(alert!.properties.webhookUrl).toEqual({ [specialSigKey]: specialSecretSig, value: WEBHOOK });
    const result = await pack.analyze(alert!);
    expect(policiesOf(result)).toEqual([
      "budget-alert-currency",
      "budget-alert-group-scope",
      "budget-alert-recipients",
      "budget-alert-thresholds",
    ]);
    expect(result.diagnostics.every((d) => d.enforcementLevel === "mandatory")).toBe(true);
    const text = result.diagnostics.map((d) => d.message).join("\n");
    expect(text).toContain("set currency to one of USD");
    expect(text).toContain("set groupId to a Cloud Group's id");
    expect(text).toContain('recipients[0] uses the domain "gmail.com"');
    expect(text).not.toContain(WEBHOOK);
    expect(text).not.toContain("me@gmail.com");
    // No cap configured for EUR: the amount is not limited (caps are per currency).
    await pack.configure({ "budget-alert-max-amount": { maxMonthlyAmount: { EUR: 100_000 } } });
    const capped = await pack.analyze(alert!);
    expect(capped.diagnostics.find((d) => d.policyName === "budget-alert-max-amount")?.message).toContain(
      "(125,000 EUR per month) is above the maximum of 100,000 EUR per month",
    );
    await pack.configure({
      "budget-alert-recipients": { allowedEmailDomains: ["example.com"] },
      "scheduled-report-delivery": { allowedFormats: ["pdf"] },
    });
  });

  test("in preview, unknown values cause no violation and no crash", async () => {
    const declared = await declareResources(
      () => {
        const group = new CloudGroup("g", { name: "G", awsAccountIds: [AWS] });
        const computed = group.id.apply((id) => `${id}@example.com`);
        const alert = new BudgetAlert("a", {
          name: "A",
          amount: group.id.apply(() => 10),
          groupId: group.id,
          recipients: [computed],
          thresholds: GOOD_THRESHOLDS,
        });
        const members = new CloudGroup("h", { name: "H", awsAccountIds: group.id.apply(() => [AWS]) });
        return [group, alert, members];
      },
      { preview: true },
    );
    const alert = byName(declared, "a");
    expect(alert.properties.groupId).toBe(unknownValue);
    expect(alert.properties.amount).toBe(unknownValue);
    for (const r of declared) {
      const result = await pack.analyze(r);
      expect(result.diagnostics).toEqual([]);
    }
  });

  test("a report with a disallowed format and a group with a duplicate member are reported", async () => {
    const declared = await declareResources(() => [
      new ScheduledReport("daily", {
        name: "D",
        report: "daily",
        schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
        recipients: ["x@other.org"],
      }),
      new CloudGroup("dup", {
        name: "Dup",
        azureSubscriptionIds: ["0B1F6471-1BF0-4DDA-AEC3-CB9272F09590", "0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
      }),
    ]);
    const report = await pack.analyze(byName(declared, "daily"));
    expect(report.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('format "csv" is not allowed: set format to pdf')]);
    const group = await pack.analyze(byName(declared, "dup"));
    expect(group.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("is listed 2 times in azureSubscriptionIds")]);
  });
});

describe("Remediate", () => {
  afterAll(() => pack.configure());

  test("the remediation variant adds the missing thresholds and keeps the webhook secret", async () => {
    await pack.configure({ "budget-alert-thresholds": "remediate" });
    const [alert] = await declareResources(() => [
      new BudgetAlert("r", { name: "R", amount: 100, groupId: "grp_0123456789", recipients: ["a@example.com"], webhookUrl: WEBHOOK }),
    ]);
    const remediated = await pack.remediate(alert!);
    expect(remediated.remediations).toHaveLength(1);
    expect(remediated.remediations[0]!.properties).toMatchObject({
      thresholds: [
        { percent: 100, basis: "actual" },
        { percent: 100, basis: "forecast" },
      ],
      webhookUrl: { [specialSigKey]: specialSecretSig, value: WEBHOOK },
      amount: 100,
    });
    const after = await pack.remediateAndAnalyze(alert!);
    expect(after.diagnostics).toEqual([]);
  });

  test("with the default level nothing is remediated and the violation stays", async () => {
    await pack.configure();
    const [alert] = await declareResources(() => [
      new BudgetAlert("r", { name: "R", amount: 100, groupId: "grp_0123456789", recipients: ["a@example.com"] }),
    ]);
    expect((await pack.remediate(alert!)).remediations).toEqual([]);
    expect(policiesOf(await pack.remediateAndAnalyze(alert!))).toEqual(["budget-alert-thresholds"]);
  });
});

describe("AnalyzeStack", () => {
  beforeAll(() => pack.configure({ "budget-total-cap": { maxTotalMonthlyAmount: { USD: 10_000 } } }));
  afterAll(() => pack.configure());

  const program = () => {
    const web = new CloudGroup("web", { name: "Web", awsAccountIds: [AWS] });
    const data = new CloudGroup("data", { name: "Data", awsAccountIds: [AWS, "210987654321"] });
    const webBudget = new BudgetAlert("web-budget", {
      name: "Web",
      amount: 8000,
      groupId: web.id,
      recipients: ["a@example.com"],
      thresholds: GOOD_THRESHOLDS,
    });
    const org = new BudgetAlert("org-budget", {
      name: "Org",
      amount: 36_000,
      period: "annual",
      recipients: ["a@example.com"],
      thresholds: GOOD_THRESHOLDS,
    });
    return [web, data, webBudget, org] as pulumi.Resource[];
  };

  for (const preview of [true, false]) {
    test(`finds the uncovered group, the cap overrun and the shared account (${preview ? "preview" : "update"})`, async () => {
      const declared = await declareResources(program, { preview });
      const result = await pack.analyzeStack(declared);
      const found = Object.fromEntries(result.diagnostics.map((d) => [d.policyName, d]));
      expect(Object.keys(found).sort()).toEqual(["budget-total-cap", "cloud-group-budget-coverage", "cloud-group-exclusive-membership"]);
      expect(found["cloud-group-budget-coverage"]).toMatchObject({ urn: byName(declared, "data").urn, enforcementLevel: "mandatory" });
      expect(found["cloud-group-budget-coverage"]!.message).toContain('Cloud Group "data" has no enabled budget alert');
      expect(found["budget-total-cap"]!.message).toContain("add up to 11,000 USD per month, above the cap of 10,000 USD");
      expect(found["cloud-group-exclusive-membership"]).toMatchObject({ urn: byName(declared, "data").urn, enforcementLevel: "advisory" });
    });
  }
});

describe("policy-config.example.json", () => {
  test("is accepted by the pack's schemas", async () => {
    const example = JSON.parse(readFileSync(join(POLICY_PACK_DIR, "policy-config.example.json"), "utf8")) as PolicyPackConfigFile;
    const sent = await pack.configure(example);
    expect(sent["budget-alert-thresholds"]!.enforcementLevel).toBe("remediate");
    await pack.configure();
  });
});
