import { startDeployment, startPolicyPack, type Deployment, type RunningPolicyPack } from "@cloudcost/testkit";
import { previewDiagnostics } from "./example-program";

/**
 * examples/alert-fires passes the policy pack's defaults, like every example users copy
 * (examples-pass-policies.test.ts). Its own file: the program calls getWebhookSigningSecret(), which in a
 * preview too needs a live API (a sandbox, reached through the CLOUDCOST_* variables the deployment sets),
 * and a preview after a deployment in the same process registers nothing in the engine stand-in.
 */
let d: Deployment;
let pack: RunningPolicyPack;

beforeAll(async () => {
  d = await startDeployment();
  pack = await startPolicyPack();
  await pack.configure({});
});
afterAll(async () => {
  await pack?.stop();
  await d?.stop();
});

test("examples/alert-fires has no violation in `pulumi preview --policy-pack policies`", async () => {
  const { resources, diagnostics } = await previewDiagnostics(pack, "alert-fires");
  expect(resources.map((urn) => urn.split("::").pop())).toEqual(["checkout", "checkout-monthly"]);
  expect(diagnostics.map((x) => `${x.urn.split("::").pop()}: ${x.policyName}: ${x.message}`)).toEqual([]);
});
