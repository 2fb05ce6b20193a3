import { kindOfType } from "../resource-class";
import type { ResourceKind } from "../dynamic-provider";
import { importPlanCommand, type ImportFile } from "./import-plan";

/*
 * `cloudcost-pulumi import-plan --org <org> --format terraform` (issue 32): the same plan as Terraform/OpenTofu
 * `import` blocks (config-driven import, Terraform ≥ 1.5 / OpenTofu ≥ 1.5), one per Cloud Group, budget alert
 * and scheduled report, after the `terraform` block that names the provider. In an empty folder:
 *
 *   cloudcost-pulumi import-plan --org demo --format terraform > imports.tf
 *   tofu init && tofu plan -generate-config-out=generated.tf
 *
 * writes each object's configuration into generated.tf, after which `tofu plan` shows no changes once applied.
 */

/** The Terraform resource type of each kind (terraform-provider-cloudcost). */
export const TERRAFORM_TYPE: Readonly<Record<ResourceKind, string>> = {
  CloudGroup: "cloudcost_cloud_group",
  BudgetAlert: "cloudcost_budget_alert",
  ScheduledReport: "cloudcost_scheduled_report",
};

/** The provider's source address (terraform-provider-cloudcost's `provider.Address`, registry host left to the CLI). */
export const PROVIDER_SOURCE = "cloudcost/cloudcost";

/**
 * A Terraform resource name from the plan's Pulumi name: those are lower-case letters, digits and dashes,
 * starting with a letter and unique in the plan, so with underscores for the dashes they are valid
 * identifiers, unique too (no Pulumi name holds an underscore), and read as HCL names do (`ops_billing_2`).
 */
export const terraformName = (pulumiName: string): string => pulumiName.replace(/-/g, "_");

/** An HCL quoted string: backslash and quote escaped, `${` and `%{` doubled so an id is never a template. */
const quoted = (text: string): string => `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/([$%])\{/g, "$1$1{")}"`;

/** The plan as HCL: the provider requirement, then one import block per object, groups first. */
export function terraformImports(plan: ImportFile): string {
  const blocks = plan.resources.map((r) => {
    const kind = kindOfType(r.type);
    if (!kind) throw new Error(`the plan holds a type with no Terraform resource: ${r.type}`);
    return `import {\n  to = ${TERRAFORM_TYPE[kind]}.${terraformName(r.name)}\n  id = ${quoted(r.id)}\n}\n`;
  });
  return [
    "# Written by `cloudcost-pulumi import-plan --format terraform`: every Cloud Group, budget alert and scheduled",
    "# report of the organization. `tofu plan -generate-config-out=generated.tf` writes their configuration.",
    "terraform {",
    "  required_providers {",
    `    cloudcost = { source = ${quoted(PROVIDER_SOURCE)} }`,
    "  }",
    "}",
    "",
    blocks.join("\n"),
  ].join("\n");
}

/**
 * The command: the JSON plan `importPlanCommand` writes (same settings, same organization check), rendered as
 * HCL. It goes through that command rather than beside it so the two formats never list different objects.
 */
export async function importTerraformCommand(args: { org?: string; apiUrl?: string }, write: (text: string) => void): Promise<void> {
  let json = "";
  await importPlanCommand(args, (text) => (json += text));
  write(terraformImports(JSON.parse(json) as ImportFile));
}
