import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import {
  leanEngine,
  type LeanEngine,
  providerText,
  startConfiguredHost,
  urn,
  type ProviderHost,
  startSandbox,
  type RunningSandbox,
} from "@cloudcost/testkit";

/*
 * The provider benchmark drives the real host through this stand-in; its figures are only worth
 * something if the stand-in makes the same calls the engine would, so the effects are checked in the API.
 */
let sandbox: RunningSandbox;
let host: ProviderHost;
let engine: LeanEngine;
let api: CloudCostClient;

beforeAll(async () => {
  sandbox = await startSandbox();
  const token = await sandbox.token();
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  host = await startConfiguredHost(sandbox.baseUrl, token);
  engine = leanEngine(host.address);
});
afterAll(async () => {
  engine?.close();
  await host?.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

describe("lean engine stand-in (benchmark)", () => {
  it("creates, reads and deletes a real object through the host, passing state along as bytes", async () => {
    const u = urn("BudgetAlert", "lean");
    const inputs = await engine.check(u, { name: "Lean engine alert", amount: 250, __provider: await providerText("BudgetAlert") });
    const { id, properties } = await engine.create(u, inputs);
    expect(await api.getAlert(id)).toMatchObject({ name: "Lean engine alert", amount: 250 });
    expect(await engine.read(u, id, properties)).toBe(id);
    await engine.delete(u, id, properties);
    expect(await engine.read(u, id, properties)).toBe("");
  });

  it("reports Check failures and gRPC errors instead of passing them on", async () => {
    const provider = await providerText("CloudGroup");
    await expect(engine.check(urn("CloudGroup", "bad"), { name: "", __provider: provider })).rejects.toThrow(/Check .*bad.*name/);
    await expect(engine.create(urn("CloudGroup", "broken"), Buffer.from([0xff]))).rejects.toThrow(/^Create: grpc-status (?!0)\d+/);
  });
});
