/**
 * The create key Check adds (provider/src/runtime/create-key.ts): the same logical create always gets the same
 * key — whatever the spelling of its inputs — and another stack, resource or intent another one; secrets
 * never reach it.
 */
import { unknownValue } from "@pulumi/pulumi/runtime";
import { handlers } from "../../provider/src/runtime";

const URN = "urn:pulumi:prod::platform::pulumi-nodejs:dynamic/cloudcost:BudgetAlert::team-budget";
const inputs = {
  name: "Team budget",
  amount: 100,
  recipients: ["a@example.com", "B@example.com"],
  thresholds: [
    { percent: 80, basis: "actual" },
    { percent: 100, basis: "forecast" },
  ],
};

async function keyOf(news: Record<string, unknown>, urn: string | null = URN): Promise<unknown> {
  const result = await handlers.BudgetAlert.check({}, urn === null ? news : { ...news, __urn: urn });
  expect(result.failures ?? []).toEqual([]);
  return result.inputs?.__createKey;
}

describe("the create key Check adds", () => {
  it("is the same for the same create spelled otherwise (set order, e-mail case, defaults written out)", async () => {
    const key = await keyOf(inputs);
    expect(key).toMatch(/^pulumi\.[0-9a-f]{16}\.[0-9a-f]{32}$/);
    const respelled = {
      ...inputs,
      recipients: ["b@example.com", "A@EXAMPLE.COM", "a@example.com"],
      thresholds: [...inputs.thresholds].reverse(),
      currency: "USD",
      period: "monthly",
    };
    expect(await keyOf(respelled)).toBe(key);
  });

  it("differs for another stack (and its prefix with it), another resource, and another intent", async () => {
    const key = String(await keyOf(inputs));
    const prefix = key.slice(0, key.lastIndexOf(".") + 1);
    const otherStack = String(await keyOf(inputs, URN.replace(":prod::", ":staging::")));
    expect(otherStack.startsWith(prefix)).toBe(false);
    const otherResource = String(await keyOf(inputs, URN.replace("::team-budget", "::other-budget")));
    expect(otherResource.startsWith(prefix)).toBe(true);
    expect(otherResource).not.toBe(key);
    expect(await keyOf({ ...inputs, amount: 101 })).not.toBe(key);
  });

  it("leaves the webhook URL (a secret) out", async () => {
    const key = await keyOf(inputs);
    expect(await keyOf({ ...inputs, webhookUrl: "https://hooks.example.com/one" })).toBe(key);
    expect(await keyOf({ ...inputs, webhookUrl: "https://hooks.example.com/two" })).toBe(key);
  });

  it("is not made without a URN, or while an input is still unknown (a preview)", async () => {
    expect(await keyOf(inputs, null)).toBeUndefined();
    expect(await keyOf(inputs, "not-a-urn")).toBeUndefined();
    expect(await keyOf({ ...inputs, amount: unknownValue })).toBeUndefined();
  });
});
