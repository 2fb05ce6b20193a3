import * as pulumi from "@pulumi/pulumi";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { CloudGroup, getWebhookSigningSecret } from "@cloudcost/pulumi";
import { outputValue, startDeployment, stripSecrets, type Deployment } from "@cloudcost/testkit";

/**
 * `getWebhookSigningSecret()` in a program: the organization's Standard Webhooks secret, as a Pulumi
 * secret wherever it goes. The engine encrypts every secret-marked value it writes to the checkpoint
 * (pulumi/pulumi pkg/resource/stack/deployment.go, SerializePropertyValue: a secret becomes
 * `{sig: secretSig, ciphertext}`), so "never in plain text in state" means: the SDK hands it to the engine
 * marked secret, as a stack output and inside every resource input it flows into.
 */
let d: Deployment;
const sandboxLog: string[] = [];

beforeAll(async () => {
  d = await startDeployment();
  d.sandbox.process.stdout?.on("data", (b: Buffer) => sandboxLog.push(b.toString()));
  d.sandbox.process.stderr?.on("data", (b: Buffer) => sandboxLog.push(b.toString()));
});
afterAll(() => d?.stop());

/** What the engine is sent for a value, as registerResourceOutputs and registerResource serialize it (runtime/rpc.ts). */
const serialized = async (value: unknown): Promise<unknown> =>
  (await pulumi.runtime.serializeProperties("test", { value: value as pulumi.Input<unknown> })).value;

describe("getWebhookSigningSecret()", () => {
  it("is the organization's signing secret, marked secret", async () => {
    const secret = getWebhookSigningSecret();
    expect(await pulumi.isSecret(secret)).toBe(true);
    const value = await outputValue(secret);
    expect(value).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(value).toBe((await d.api.getWebhookSigningSecret()).secret);
  });

  it("reaches the engine marked secret as a stack output and in a resource input built from it", async () => {
    const secret = getWebhookSigningSecret();
    const value = await outputValue(secret);
    expect(await serialized(secret)).toEqual({ [specialSigKey]: specialSecretSig, value });

    // A stack that hands the secret on (here into a description, standing in for a receiver's environment).
    const group = new CloudGroup("receiver-settings", { name: "Receiver settings", description: pulumi.interpolate`key ${secret}` });
    await outputValue(group.id);
    const stored = d.engine.state.get(d.engine.urnOf("pulumi-nodejs:dynamic/cloudcost:CloudGroup", "receiver-settings"))!;
    expect(stored.inputs.description).toEqual({ [specialSigKey]: specialSecretSig, value: `key ${value}` });
    expect(stored.outputs.description).toEqual({ [specialSigKey]: specialSecretSig, value: `key ${value}` });
    // Outside the secret envelopes (which the engine encrypts) the value appears nowhere in state.
    const visible = JSON.stringify(
      [...d.engine.state.values()].map((r) => [withoutSecretValues(r.inputs), withoutSecretValues(r.outputs)]),
    );
    expect(visible).not.toContain(value);
    expect(JSON.stringify(stripSecrets(stored.inputs))).toContain(value); // the check above could see it
  });

  it("a rotation is picked up by the next run; the previous secret is no longer returned", async () => {
    const before = await outputValue(getWebhookSigningSecret());
    const rotated = await d.api.rotateWebhookSigningSecret();
    const after = await outputValue(getWebhookSigningSecret());
    expect(after).toBe(rotated.secret);
    expect(after).not.toBe(before);
  });

  it("the secret never appears in the provider host's or the sandbox's logs", async () => {
    const current = (await d.api.getWebhookSigningSecret()).secret;
    const logs = `${d.host.stderr()}\n${sandboxLog.join("")}`;
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(current);
    expect(logs).not.toContain(current.slice("whsec_".length));
  });
});

/** `value` with every secret envelope's content replaced by a marker. */
function withoutSecretValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretValues);
  if (value === null || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  if (o[specialSigKey] === specialSecretSig) return "[secret]";
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, withoutSecretValues(v)]));
}
