import type { Scope } from "@cloudcost/api";
import type { RunningSandbox } from "@cloudcost/testkit";
import type { OrgApi } from "./route-requests";

/** Creates an organization through the sandbox CLI (a fresh one has the demo data seeded). */
export async function createOrg(sb: RunningSandbox, name: string): Promise<void> {
  await sb.cliJson(["org", "create", name, "--json"]);
}

/** An API token of `org` with exactly `scopes`, made with the CLI (the portal's API Access page does the same). */
export async function apiToken(sb: RunningSandbox, org: string, scopes: readonly Scope[]): Promise<string> {
  return (await sb.cliJson<{ token: string }>(["token", "create", "--org", org, "--scopes", scopes.join(","), "--json"])).token;
}

export async function revokeToken(sb: RunningSandbox, org: string, token: string): Promise<void> {
  const r = await sb.cli(["token", "revoke", "--org", org, token]);
  if (r.code !== 0) throw new Error(`token revoke failed (${r.code}): ${r.stderr}`);
}

export async function orgApi(sb: RunningSandbox, org: string, marker: string): Promise<OrgApi> {
  return { baseUrl: sb.baseUrl, token: await apiToken(sb, org, ["read", "write", "run"]), marker };
}

/**
 * `serve` arguments for tests that send thousands of requests with one token: the per-token rate limit
 * would answer 429 and hide what the test looks at (rate limiting has its own tests).
 */
export const UNLIMITED = ["--rate-limit", "0"];
