import type { ResourceKind } from "@cloudcost/pulumi";

/** The package name: plugin `pulumi-resource-cloudcost`, type tokens `cloudcost:index:<Kind>`, config `cloudcost:<key>`. */
export const PACKAGE = "cloudcost";

export const KINDS: readonly ResourceKind[] = ["CloudGroup", "BudgetAlert", "ScheduledReport"];

/** The native type token of a kind. */
export const resourceToken = (kind: ResourceKind): string => `${PACKAGE}:index:${kind}`;

/** The kind a type token names; undefined for any other token. */
export function kindOf(token: string): ResourceKind | undefined {
  return KINDS.find((kind) => resourceToken(kind) === token);
}
