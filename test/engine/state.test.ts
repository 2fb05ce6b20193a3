/**
 * What the real engine writes to state: no credential and no webhook URL in plain text anywhere in the
 * backend's files or in `pulumi stack export`, and a `__provider` per resource at the size the bench
 * promises (bench/README.md, `provider.serializedProviderBytes` ≤ 512). On the passphrase secrets provider, the one
 * a user without a key service has (the other suites' stacks use a key service: testkit's `PulumiWorkspace`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { StateResource } from "@cloudcost/testkit";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, TYPES, expectSuccess, useEngineFixture } from "./support";

const f = useEngineFixture("passphrase");

/** Every file under DIR, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, "latin1")];
  });
}

const WEBHOOK = "https://hooks.example.com/services/T000/B000/very-secret-path";

describe("state written by the real engine", () => {
  let resources: StateResource[];
  let clientSecret: string;

  beforeAll(async () => {
    const client = await f.sandbox.client("read,write");
    clientSecret = client.client_secret;
    const stack = await f.stack(DECLARED_PROGRAM, "state");
    // OAuth client credentials instead of the fixture's token: both kinds of secret config are covered.
    await stack.must(["config", "rm", "cloudcost:apiToken"]);
    await stack.setConfig({ key: "cloudcost:clientId", value: client.client_id });
    await stack.setConfig({ key: "cloudcost:clientSecret", value: client.client_secret, secret: true });
    // The declarations hold the webhook URL: a secret in stack config, as a user keeps it.
    await stack.setConfigObject(
      DECLARED_RESOURCES,
      [
        { kind: "CloudGroup", name: "g", inputs: { name: "State group", awsAccountIds: ["111122223333"] } },
        { kind: "BudgetAlert", name: "a", groupOf: "g", inputs: { name: "State alert", amount: 10, webhookUrl: WEBHOOK } },
        {
          kind: "ScheduledReport",
          name: "r",
          groupOf: "g",
          inputs: {
            name: "State report",
            report: "summary",
            schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
            recipients: ["a@example.com"],
          },
        },
      ],
      { secret: true },
    );
    expectSuccess(await stack.up());
    expectSuccess(await stack.refresh());
    resources = (await stack.exportState()).deployment.resources ?? [];
  });

  it("holds no credential and no webhook URL in plain text, in the export or in any backend file", () => {
    const texts = [JSON.stringify(resources), ...filesUnder(f.workspace.backendDir)];
    const leaks = [f.token, clientSecret, WEBHOOK, "very-secret-path"].flatMap((secret) =>
      texts.filter((t) => t.includes(secret)).map((t) => t.slice(Math.max(0, t.indexOf(secret) - 300), t.indexOf(secret) + 100)),
    );
    expect(leaks).toEqual([]);
  });

  it("keeps the webhook URL as an encrypted secret output", () => {
    const alert = resources.find((r) => r.type === TYPES.alert)!;
    expect(alert.outputs!.webhookUrl).toEqual(
      expect.objectContaining({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" }),
    );
  });

  it("stores a small `__provider` for each kind (at most 512 bytes; it is written for every resource)", () => {
    const sizes = Object.fromEntries(
      Object.values(TYPES).map((type) => {
        const provider = resources.find((r) => r.type === type)!.inputs!.__provider as string;
        return [type.split(":").pop(), Buffer.byteLength(provider)];
      }),
    );
    for (const size of Object.values(sizes)) expect(size).toBeLessThanOrEqual(512);
    expect(Object.keys(sizes)).toEqual(["CloudGroup", "BudgetAlert", "ScheduledReport"]);
  });
});
