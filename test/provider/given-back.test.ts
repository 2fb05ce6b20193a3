/**
 * Issue 37, the Pulumi doors: an object a later create was given back (its key answered again) is never deleted
 * for the resource whose create made it. `pulumi up --target-replace` of a resource with unchanged inputs within
 * the key's 24 hours is answered with the object it replaces (the engine sends the replacement through a Check
 * with no old inputs and never calls Diff); when that `up` is interrupted before the replaced resource's delete,
 * the next `up` — a new provider process — deletes the replaced resource. Each step here runs in a new REAL
 * dynamic-provider host, as the CLI starts one per `up`, against a real sandbox.
 */
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { providerTexts, startConfiguredHost, startSandbox, urn, type ProviderHost, type RunningSandbox } from "@cloudcost/testkit";

type Json = Record<string, unknown>;

let sandbox: RunningSandbox;
let token: string;
let api: CloudCostClient;
let providerText: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  token = await sandbox.token();
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  providerText = (await providerTexts()).BudgetAlert;
});
afterAll(async () => {
  await sandbox?.dispose();
  await closeAllPools();
});

/** One `pulumi up`'s provider process: started, used, stopped. */
async function inNewProcess<T>(work: (host: ProviderHost) => Promise<T>): Promise<T> {
  const host = await startConfiguredHost(sandbox.baseUrl, token);
  try {
    return await work(host);
  } finally {
    await host.stop();
  }
}

const alert = urn("BudgetAlert", "kept");
const inputs = { name: "Given back", amount: 25 };

async function checkAndCreate(host: ProviderHost): Promise<{ id: string; outputs: Json }> {
  // The program passes its URN as `__urn` (the dynamic provider derives the create key from it).
  const checked = await host.check(alert, {}, { ...inputs, __urn: alert, __provider: providerText });
  expect(checked.failures).toEqual([]);
  const created = await host.create(alert, checked.inputs);
  return { id: created.id, outputs: created.properties };
}

async function exists(id: string): Promise<boolean> {
  for await (const a of api.listAlerts()) if (a.id === id) return true;
  return false;
}

it("keeps an object a later create was given back when the resource that made it is deleted, and deletes it for its holder", async () => {
  const made = await inNewProcess(checkAndCreate);
  // The targeted replacement's create, in the next `up`: same URN and inputs, hence the same key.
  const replacement = await inNewProcess(checkAndCreate);
  expect(replacement.id).toBe(made.id);
  const records = [];
  for await (const r of api.listIdempotencyKeys(String(made.outputs.__createKey))) records.push(r);
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ resourceId: made.id, replayedAt: expect.any(String) });

  // The `up` after the interruption deletes the replaced resource (its outputs are the first create's).
  await inNewProcess((host) => host.delete(alert, made.id, made.outputs));
  expect(await exists(made.id)).toBe(true);

  // A refresh keeps the holder's mark; its own delete (`pulumi destroy`) deletes the object.
  const read = await inNewProcess((host) => host.read(alert, replacement.id, replacement.outputs));
  await inNewProcess((host) => host.delete(alert, replacement.id, read.properties));
  expect(await exists(made.id)).toBe(false);
});

it("deletes an object whose key was never answered again", async () => {
  const made = await inNewProcess(checkAndCreate);
  await inNewProcess((host) => host.delete(alert, made.id, made.outputs));
  expect(await exists(made.id)).toBe(false);
});
