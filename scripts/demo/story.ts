/** What both ways of running the demo share: where things are and what the story does to the sandbox. */
import { join } from "node:path";
import { AlertInput, CloudCostClient } from "@cloudcost/api";
import { secret } from "@cloudcost/testkit";
import { z } from "zod";

/** The repository root (this file is scripts/demo/story.ts). */
export const REPO = join(__dirname, "..", "..");
export const QUICKSTART = join(REPO, "examples", "quickstart");
export const POLICY_VIOLATIONS = join(REPO, "examples", "policy-violations");
export const POLICY_PACK = join(REPO, "policies");

/** OAuth client credentials the demo creates in the sandbox, as a real user would in the portal. */
export interface DemoCredentials {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

/** The amount the demo sets behind Pulumi's back; the quickstart declares 5,000. */
export const DRIFTED_AMOUNT = 7500;

/** The stack config both engines hand to the provider (secrets marked as such). */
export function stackConfig(creds: DemoCredentials): { key: string; value: string; secret: boolean }[] {
  return [
    { key: "cloudcost:apiUrl", value: creds.apiUrl, secret: false },
    { key: "cloudcost:clientId", value: creds.clientId, secret: false },
    { key: "cloudcost:clientSecret", value: creds.clientSecret, secret: true },
  ];
}

/** The same config as the provider host receives it at Configure: secrets wrapped as the engine sends them. */
export function hostConfig(creds: DemoCredentials): Record<string, unknown> {
  return Object.fromEntries(stackConfig(creds).map(({ key, value, secret: isSecret }) => [key, isSecret ? secret(value) : value]));
}

/**
 * Changes the budget alert's amount through the API directly, as someone editing it in the portal
 * would: Pulumi's state still says 5,000, the service now says 7,500. Returns the old amount.
 */
export async function changeAlertBehindPulumisBack(creds: DemoCredentials, alertId: string): Promise<number> {
  const client = new CloudCostClient({ baseUrl: creds.apiUrl, auth: { clientId: creds.clientId, clientSecret: creds.clientSecret } });
  const alert = await client.getAlert(alertId);
  // PUT replaces the whole alert: send every input field as read, with only the amount changed.
  const fields = z.object(AlertInput.shape).parse(alert);
  await client.replaceAlert(alertId, { ...fields, amount: DRIFTED_AMOUNT });
  return alert.amount;
}
