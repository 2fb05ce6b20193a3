import { declareResources, startPolicyPack, type RunningPolicyPack } from "../harness/policy-pack";
import { runExample, stackConfigOf } from "./example-program";

/**
 * Users copy the examples, so every example but policy-violations must pass the policy pack with its
 * default configuration, as `pulumi preview --policy-pack policies` checks them.
 */
const PROJECT = "policy-test"; // the project declareResources runs programs under

const EXAMPLES: [string, Record<string, string>][] = [
  ["quickstart", {}],
  ["platform-teams", stackConfigOf("platform-teams", "dev", PROJECT)],
  ["forecast-budgets", {}],
  ["adopt-existing", { [`${PROJECT}:groupId`]: "grp_0123456789abcdef" }],
];

let pack: RunningPolicyPack;

beforeAll(async () => {
  pack = await startPolicyPack();
  await pack.configure({});
}, 60_000);
afterAll(() => pack?.stop());

describe("the examples under the policy pack's defaults", () => {
  it.each(EXAMPLES)("%s has no violation", async (example, config) => {
    const declared = await declareResources(async () => (await runExample(example, config), []), { preview: true });
    const resources = declared.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/cloudcost:"));
    expect(resources.length).toBeGreaterThanOrEqual(2);
    const perResource = await Promise.all(resources.map(async (r) => (await pack.analyze(r)).diagnostics.map((x) => `${r.name}: ${x.policyName}: ${x.message}`)));
    const stack = (await pack.analyzeStack(resources)).diagnostics.map((x) => `${x.urn.split("::").pop()}: ${x.policyName}: ${x.message}`);
    expect([...perResource.flat(), ...stack]).toEqual([]);
  });
});
