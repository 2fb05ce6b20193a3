import type { CloudCostClient, Organization } from "@cloudcost/api";

/**
 * The organization each client's credentials belong to, asked once per client (`GET /organization`):
 * credentials never move between organizations, so one answer serves every resource of the process.
 * A failed lookup is not remembered, so the next call asks again.
 */
const byClient = new WeakMap<CloudCostClient, Promise<Organization>>();

export function organizationOf(client: CloudCostClient): Promise<Organization> {
  let org = byClient.get(client);
  if (!org) {
    org = client.getOrganization();
    byClient.set(client, org);
    org.catch(() => byClient.delete(client));
  }
  return org;
}

/** The output that records which organization owns an object. */
export const ORGANIZATION_KEY = "organization";
