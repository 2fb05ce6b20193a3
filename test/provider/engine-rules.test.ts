/**
 * Issue 13 regressions, each driven through the engine rules of testkit/src/engine.ts (real programs,
 * the real dynamic-provider host, a real sandbox): what passes here must hold under Pulumi's engine.
 */
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { BudgetAlert, CloudGroup } from "@cloudcost/pulumi";
import { Engine, type StoredResource, secret, holdSandboxDay, startSandbox, type RunningSandbox } from "@cloudcost/testkit";

let sandbox: RunningSandbox;
let token: string;
let otherToken: string;
let api: CloudCostClient;
const engines: Engine[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  token = await sandbox.token("read,write");
  await holdSandboxDay(sandbox, token);
  await sandbox.cliJson(["org", "create", "acme-other", "--json"]);
  otherToken = (await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "acme-other", "--scopes", "read,write", "--json"]))
    .token;
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
});
afterAll(async () => {
  for (const e of engines) await e.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

/** A stack whose provider is configured from stack config (`cloudcost:apiToken` stored as a secret). */
function stack(): Engine {
  const e = new Engine({ config: { "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) } });
  engines.push(e);
  return e;
}

const webhookUrl = "https://hooks.example.com/services/T000/issue-13";
const only = (e: Engine, name: string): StoredResource => [...e.state.values()].find((r) => r.name === name)!;

describe("item 1: ignoreChanges on a write-only field after a refresh", () => {
  it("keeps the webhook on the service (the ignored path is copied from the inputs refresh stored)", async () => {
    const e = stack();
    const program = () => [new BudgetAlert("a1", { name: "Item 1", amount: 100, webhookUrl }, { ignoreChanges: ["webhookUrl"] })];
    await e.runProgram(program);
    const id = only(e, "a1").id;
    const before = await api.getAlert(id);
    await e.refresh();
    const up = await e.runProgram(program);
    expect(up.steps.map((s) => s.op)).toEqual(["same"]);
    const after = await api.getAlert(id);
    expect(after.webhookUrl).toBe(webhookUrl);
    expect(after.updatedAt).toBe(before.updatedAt);
  });

  it("keeps the webhook secret in the inputs refresh stored", async () => {
    const e = stack();
    await e.runProgram(() => [new BudgetAlert("a1s", { name: "Item 1 secret", amount: 100, webhookUrl })]);
    await e.refresh();
    expect(JSON.stringify(only(e, "a1s").inputs)).not.toContain(`"webhookUrl":"${webhookUrl}"`);
    expect(JSON.stringify(only(e, "a1s").outputs)).not.toContain(`"webhookUrl":"${webhookUrl}"`);
  });
});

describe("item 2: refresh is repeatable", () => {
  it("a first and a second refresh of an unchanged alert with a webhook change nothing in state", async () => {
    const e = stack();
    await e.runProgram(() => [
      new BudgetAlert("a2", { name: "Item 2", amount: 250, webhookUrl, recipients: ["B@Example.com", "a@example.com"] }),
    ]);
    expect(await e.refresh()).toEqual([expect.objectContaining({ gone: false, inputsChanged: false, outputsChanged: false })]);
    expect(await e.refresh()).toEqual([expect.objectContaining({ gone: false, inputsChanged: false, outputsChanged: false })]);
  });
});

describe("item 4: CloudGroup.get of an id that cannot be read", () => {
  it("fails with a message naming a missing id", async () => {
    const e = stack();
    await expect(e.runProgram(() => [CloudGroup.get("missing", "grp_0000000000000000000000000")])).rejects.toThrow(
      /CloudGroup grp_0000000000000000000000000 does not exist/,
    );
  });

  it("fails for a group of another organization", async () => {
    const other = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: otherToken } });
    const foreign = await other.createGroup({ name: "Theirs" });
    const e = stack();
    await expect(e.runProgram(() => [CloudGroup.get("foreign", foreign.id)])).rejects.toThrow(
      new RegExp(`CloudGroup ${foreign.id} does not exist in organization`),
    );
  });

  it("still reads an existing group", async () => {
    const existing = await api.createGroup({ name: "Looked up" });
    const e = stack();
    const up = await e.runProgram(() => [CloudGroup.get("found", existing.id)]);
    expect(up.steps).toEqual([expect.objectContaining({ op: "read" })]);
  });
});

describe("item 5: money noise", () => {
  it("0.1 + 0.2 against a stored 0.3 is no change", async () => {
    const e = stack();
    await e.runProgram(() => [new BudgetAlert("a5", { name: "Item 5", amount: 0.3 })]);
    const up = await e.runProgram(() => [new BudgetAlert("a5", { name: "Item 5", amount: 0.1 + 0.2 })]);
    expect(up.steps.map((s) => s.op)).toEqual(["same"]);
    expect(stripProvider(only(e, "a5").inputs).amount).toBe(0.3);
  });

  it("an amount with a third decimal place is still refused by name", async () => {
    const e = stack();
    await expect(e.runProgram(() => [new BudgetAlert("a5b", { name: "Item 5b", amount: 12.345 })])).rejects.toThrow(
      /amount must have at most two decimal places/,
    );
  });
});

describe("item 7: credentials of another organization", () => {
  /** Credentials from the environment, not stack config: a later command may run with other ones. */
  async function envStack(apiToken: string): Promise<Engine> {
    const e = new Engine({ config: { "cloudcost:apiUrl": sandbox.baseUrl }, env: { CLOUDCOST_API_TOKEN: apiToken } });
    engines.push(e);
    return e;
  }

  it("records the owning organization in the outputs", async () => {
    const e = await envStack(token);
    await e.runProgram(() => [new CloudGroup("g7a", { name: "Item 7 recorded" })]);
    const org = await api.getOrganization();
    expect(only(e, "g7a").outputs.organization).toBe(org.id);
  });

  it("destroy fails clearly and leaves the objects on the service and in state", async () => {
    const e = await envStack(token);
    await e.runProgram(() => [new BudgetAlert("a7", { name: "Item 7", amount: 10 }), new CloudGroup("g7", { name: "Item 7 group" })]);
    const ids = [only(e, "a7").id, only(e, "g7").id];
    await e.setEnv({ CLOUDCOST_API_TOKEN: otherToken });
    await expect(e.destroy()).rejects.toThrow(
      /belongs to organization org_\w+, but the configured credentials belong to organization org_\w+ \(acme-other\)/,
    );
    await expect(api.getAlert(ids[0]!)).resolves.toMatchObject({ id: ids[0] });
    await expect(api.getGroup(ids[1]!)).resolves.toMatchObject({ id: ids[1] });
    expect(e.state.size).toBe(2);
  });

  it("refresh fails instead of dropping the objects from state", async () => {
    const e = await envStack(token);
    await e.runProgram(() => [new CloudGroup("g7r", { name: "Item 7 refresh" })]);
    await e.setEnv({ CLOUDCOST_API_TOKEN: otherToken });
    await expect(e.refresh()).rejects.toThrow(/cannot refresh CloudGroup grp_\w+: it belongs to organization/);
    expect(e.state.size).toBe(1);
  });

  it("an object really deleted outside Pulumi is still dropped by refresh and destroy", async () => {
    const e = await envStack(token);
    await e.runProgram(() => [new CloudGroup("g7d", { name: "Item 7 deleted" }), new CloudGroup("g7e", { name: "Item 7 deleted too" })]);
    await api.deleteGroup(only(e, "g7d").id);
    expect((await e.refresh()).map((r) => r.gone)).toEqual([true, false]);
    await api.deleteGroup(only(e, "g7e").id);
    await expect(e.destroy()).resolves.toBeUndefined();
  });
});

describe("item 8: replacing a group whose name is unique on the service", () => {
  it("--target-replace deletes the old group before creating the new one", async () => {
    const e = stack();
    const program = () => [new CloudGroup("g8", { name: "Item 8" })];
    await e.runProgram(program);
    const oldId = only(e, "g8").id;
    const up = await e.runProgram(program, { replaceTargets: [e.urnOf(CloudGroup.__pulumiType, "g8")] });
    expect(up.steps).toEqual([expect.objectContaining({ op: "replace", order: "delete-before-create" })]);
    const newId = only(e, "g8").id;
    expect(newId).not.toBe(oldId);
    await expect(api.getGroup(newId)).resolves.toMatchObject({ name: "Item 8" });
    await expect(api.getGroup(oldId)).rejects.toMatchObject({ status: 404 });
  });

  it("a provider-requested replace (replaceOnChanges) asks Diff, which asks for delete-before-replace too", async () => {
    const e = stack();
    await e.runProgram(() => [new CloudGroup("g8b", { name: "Item 8b" })]);
    const { host } = await e.hostFor({ "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) });
    const r = only(e, "g8b");
    const diff = await host.diff(r.urn, r.id, r.outputs, { ...r.inputs, description: "changed" });
    expect(diff).toMatchObject({ changes: "unknown", deleteBeforeReplace: true });
  });
});

describe("engine rules the provider relies on", () => {
  it("refresh and destroy use the provider config stored in state, not the program's current config", async () => {
    const e = stack();
    await e.runProgram(() => [new CloudGroup("stored-config", { name: "Stored config" })]);
    const id = only(e, "stored-config").id;
    e.setConfig({ "cloudcost:apiUrl": "http://127.0.0.1:9/api/v1", "cloudcost:apiToken": secret(otherToken) });
    expect(await e.refresh()).toEqual([expect.objectContaining({ gone: false, inputsChanged: false })]);
    await e.destroy();
    await expect(api.getGroup(id)).rejects.toMatchObject({ status: 404 });
  });

  it("the dynamic provider host does not accept secrets, so the engine strips them before every call", async () => {
    const e = stack();
    const { acceptSecrets } = await e.hostFor({ "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) });
    expect(acceptSecrets).toBe(false);
  });
});

function stripProvider(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith("__")));
}
