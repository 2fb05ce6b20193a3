/**
 * State written by release 0.1.0 carries the large (~2 KB) `__provider` text, which `require`s
 * `@cloudcost/pulumi/runtime` and calls `[kind][operation]` (recorded verbatim in fixtures/). After an
 * upgrade that state must still refresh, update and destroy through the REAL dynamic-provider host: the
 * host runs refresh and delete with the stored text and update with the program's new one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { closeAllPools } from "@cloudcost/api";
import { providerTexts, RESOURCE_KINDS, startConfiguredHost, urn, type ProviderHost, type ResourceKind } from "@cloudcost/testkit";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

const OLD: Record<ResourceKind, string> = Object.fromEntries(
  RESOURCE_KINDS.map((k) => [k, readFileSync(join(__dirname, "fixtures", `provider-0.1.0-${k}.txt`), "utf8")]),
) as Record<ResourceKind, string>;

const INPUTS: Record<ResourceKind, Record<string, unknown>> = {
  CloudGroup: { name: "old state group" },
  BudgetAlert: { name: "old state alert", amount: 100, recipients: ["finops@example.com"] },
  ScheduledReport: {
    name: "old state report",
    report: "summary",
    schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
    recipients: ["finops@example.com"],
  },
};
const CHANGE: Record<ResourceKind, Record<string, unknown>> = {
  CloudGroup: { description: "updated after the upgrade" },
  BudgetAlert: { amount: 250 },
  ScheduledReport: { name: "renamed after the upgrade" },
};

let sandbox: RunningSandbox;
let host: ProviderHost;
let texts: Record<ResourceKind, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
  host = await startConfiguredHost(sandbox.baseUrl, await sandbox.token("read,write"));
  texts = await providerTexts();
});
afterAll(async () => {
  await host?.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

test("the recorded 0.1.0 texts are the large form and the current ones are not", () => {
  for (const k of RESOURCE_KINDS) {
    expect(OLD[k]).toContain('require("@cloudcost/pulumi/runtime")');
    expect(Buffer.byteLength(OLD[k])).toBeGreaterThan(2000);
    expect(texts[k]).not.toBe(OLD[k]);
  }
});

describe.each(RESOURCE_KINDS)("%s stored by 0.1.0", (kind) => {
  /** A resource as 0.1.0 left it in state: created with the old `__provider`. */
  async function oldResource(name: string) {
    const u = urn(kind, name);
    const checked = await host.check(u, {}, { ...INPUTS[kind], __provider: OLD[kind] });
    expect(checked.failures).toEqual([]);
    const created = await host.create(u, checked.inputs);
    expect(created.properties.__provider).toBe(OLD[kind]);
    return { u, id: created.id, outputs: created.properties, inputs: checked.inputs };
  }

  test("refreshes, updates with the new provider, and is destroyed", async () => {
    const r = await oldResource(`upgrade-${kind}`);
    const read = await host.read(r.u, r.id, r.outputs, r.inputs);
    expect(read.id).toBe(r.id);
    expect(read.properties.__provider).toBe(OLD[kind]);
    const news = (await host.check(r.u, r.inputs, { ...INPUTS[kind], ...CHANGE[kind], __provider: texts[kind] })).inputs;
    const diff = await host.diff(r.u, r.id, read.properties, news, read.inputs);
    expect(diff.changes).toBe("unknown");
    const updated = await host.update(r.u, r.id, read.properties, news, read.inputs);
    for (const [key, value] of Object.entries(CHANGE[kind])) expect(updated[key]).toEqual(value);
    expect(updated.__provider).toBe(texts[kind]);
    await host.delete(r.u, r.id, updated);
    expect((await host.read(r.u, r.id, updated, news)).id).toBe("");
  });

  test("is destroyed with its stored old provider", async () => {
    const r = await oldResource(`destroy-${kind}`);
    await host.delete(r.u, r.id, r.outputs);
    expect((await host.read(r.u, r.id, r.outputs, r.inputs)).id).toBe("");
  });
});
