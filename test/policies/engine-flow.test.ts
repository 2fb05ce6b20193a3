/**
 * The policy pack inside an update, as the engine runs it (testkit/src/engine.ts): Check, Remediate
 * (whose properties become Create's inputs, with no second Check), Analyze, then AnalyzeStack on every
 * resource's final OUTPUTS — and on a later `up`, Same steps carry the stored outputs. Real program, real
 * host, real pack, real sandbox (issue 13 item 3).
 */
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { BudgetAlert, CloudGroup } from "@cloudcost/pulumi";
import {
  Engine,
  PolicyViolation,
  type UpResult,
  startPolicyPack,
  type RunningPolicyPack,
  secret,
  startSandbox,
  type RunningSandbox,
} from "@cloudcost/testkit";

let sandbox: RunningSandbox;
let token: string;
let api: CloudCostClient;
let pack: RunningPolicyPack;
let aws: string[];
const engines: Engine[] = [];
/** Organization-wide budgets allowed, so the cap example needs no groups. */
const PACK_CONFIG = { "budget-alert-group-scope": { allowOrganizationWide: true } };

beforeAll(async () => {
  sandbox = await startSandbox();
  token = await sandbox.token("read,write");
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  // No forecast source: the live forecast policy stays out of these verdicts.
  pack = await startPolicyPack({ env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
  await pack.configure(PACK_CONFIG);
  aws = [];
  for await (const a of api.listAccounts()) if (a.provider === "aws") aws.push(a.accountId);
});
afterAll(async () => {
  for (const e of engines) await e.stop();
  await pack?.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

function stack(): Engine {
  const e = new Engine({ config: { "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) }, policyPack: pack });
  engines.push(e);
  return e;
}

const GOOD = {
  thresholds: [
    { percent: 100, basis: "actual" as const },
    { percent: 100, basis: "forecast" as const },
  ],
  recipients: ["finops@example.com"],
};
/** A verdict as a user reads it: which policy failed on which resource. */
const verdict = (r: UpResult) => r.diagnostics.map((d) => `${d.policyName} ${d.urn.split("::").pop()}`).sort();

async function productionGroup(): Promise<{ id: string; awsAccountIds: string[]; azureSubscriptionIds: string[] }> {
  for await (const g of api.listGroups()) {
    const ids = (p: string) => g.members.filter((m) => m.provider === p).map((m) => m.accountId);
    if (g.name === "Production" && g.source === "portal")
      return { id: g.id, awsAccountIds: ids("aws"), azureSubscriptionIds: ids("azure") };
  }
  throw new Error("the sandbox has no portal-made Production group");
}

describe("item 3: stack policies judge outputs as they judge checked inputs", () => {
  it("an adopted group covered by an alert naming its id passes in preview, on up, and on every later up", async () => {
    const { id: prodId, ...members } = await productionGroup();
    const e = stack();
    const program = () => [
      new CloudGroup("prod", { name: "Production", adoptId: prodId, ...members }),
      new BudgetAlert("prod-budget", { name: "Production budget", amount: 5000, groupId: prodId, ...GOOD }),
    ];
    expect(verdict(await e.runProgram(program, { preview: true }))).toEqual([]);
    const first = await e.runProgram(program);
    expect(verdict(first)).toEqual([]);
    const second = await e.runProgram(program);
    expect(second.steps.map((s) => s.op)).toEqual(["same", "same"]);
    expect(verdict(second)).toEqual([]);
    await e.refresh();
    expect(verdict(await e.runProgram(program))).toEqual([]);
  });

  it.each([
    [
      "a group covered through its id output",
      false,
      () => {
        const g = new CloudGroup("covered", { name: "Covered", awsAccountIds: [aws[0]!] });
        return [g, new BudgetAlert("covered-budget", { name: "Covered budget", amount: 100, groupId: g.id, ...GOOD })];
      },
    ],
    ["a group without an alert", true, () => [new CloudGroup("bare", { name: "Bare", awsAccountIds: [aws[1]!] })]],
    [
      "a disabled alert only",
      true,
      () => {
        const g = new CloudGroup("disabled", { name: "Disabled cover", awsAccountIds: [aws[0]!] });
        return [g, new BudgetAlert("disabled-budget", { name: "Off", amount: 100, groupId: g.id, enabled: false, ...GOOD })];
      },
    ],
    [
      "two groups sharing an account (mixed case, duplicates)",
      true,
      () => {
        const g1 = new CloudGroup("shared-1", { name: "Shared 1", awsAccountIds: [aws[2]!, aws[2]!] });
        const g2 = new CloudGroup("shared-2", { name: "Shared 2", awsAccountIds: [aws[2]!] });
        return [
          g1,
          g2,
          ...[g1, g2].map(
            (g, i) => new BudgetAlert(`shared-budget-${i}`, { name: `Shared budget ${i}`, amount: 100, groupId: g.id, ...GOOD }),
          ),
        ];
      },
    ],
    [
      "budgets over the total cap",
      true,
      () => [
        new BudgetAlert("big-1", { name: "Big 1", amount: 90_000, ...GOOD }),
        new BudgetAlert("big-2", { name: "Big 2", amount: 95_000, ...GOOD }),
        new BudgetAlert("big-3", { name: "Big 3", amount: 99_000, currency: "USD", period: "monthly", ...GOOD }),
        new BudgetAlert("big-4", { name: "Big 4", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-5", { name: "Big 5", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-6", { name: "Big 6", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-7", { name: "Big 7", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-8", { name: "Big 8", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-9", { name: "Big 9", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-10", { name: "Big 10", amount: 99_000, ...GOOD }),
        new BudgetAlert("big-11", { name: "Big 11", amount: 99_000, ...GOOD }),
      ],
    ],
  ])(
    "%s (violates: %s): the same verdict in preview (checked inputs), after up (outputs) and on the next up (Same steps)",
    async (_label, violates, program) => {
      const e = stack();
      const preview = verdict(await e.runProgram(program, { preview: true }));
      expect(preview.length > 0).toBe(violates);
      const up = verdict(await e.runProgram(program));
      const again = verdict(await e.runProgram(program));
      expect(up).toEqual(preview);
      expect(again).toEqual(preview);
      await e.runProgram(() => []);
    },
  );
});

describe("Remediate inside an update", () => {
  it("creates the remediated alert: the remediation's properties become Create's inputs, with no second Check", async () => {
    await pack.configure({ ...PACK_CONFIG, "budget-alert-thresholds": "remediate" });
    try {
      const e = stack();
      const up = await e.runProgram(() => [
        new BudgetAlert("remediated", { name: "Remediated", amount: 100, recipients: ["finops@example.com"] }),
      ]);
      const id = [...e.state.values()][0]!.id;
      const live = await api.getAlert(id);
      expect(live.thresholds).toEqual(
        expect.arrayContaining([
          { percent: 100, basis: "actual" },
          { percent: 100, basis: "forecast" },
        ]),
      );
      expect(verdict(up)).toEqual([]);
      await e.destroy();
    } finally {
      await pack.configure(PACK_CONFIG);
    }
  });

  it("a mandatory Analyze violation stops the resource before anything is created", async () => {
    const e = stack();
    await expect(
      e.runProgram(() => [new BudgetAlert("no-recipients", { name: "Nobody", amount: 100, thresholds: GOOD.thresholds })]),
    ).rejects.toBeInstanceOf(PolicyViolation);
    expect(e.state.size).toBe(0);
  });
});
