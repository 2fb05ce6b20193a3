/*
 * Issue 37 §4: a policy's message suggests a fix as code, and says it in the syntax of the door that asked.
 * The policies write their messages once, in the Pulumi program's syntax (what `pulumi preview` shows);
 * each example is made here, from structured values, together with its HCL form, and registered, so the
 * Terraform door (`check-plan`) swaps exactly the texts made here — nothing is guessed from a message.
 */

type Scalar = string | number | boolean;

/** Pulumi's text → HCL's text, for every example a policy has made in this process. */
const HCL_OF = new Map<string, string>();

const literal = (value: Scalar) => (typeof value === "string" ? JSON.stringify(value) : String(value));

function registered(pulumi: string, hcl: string): string {
  HCL_OF.set(pulumi, hcl);
  return pulumi;
}

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** An object literal: `{ percent: 100, basis: "forecast" }` in a program, `{ percent = 100, basis = "forecast" }` in HCL. */
export function objectExample(fields: Readonly<Record<string, Scalar>>): string {
  const entries = Object.entries(fields);
  return registered(
    `{ ${entries.map(([k, v]) => `${k}: ${literal(v)}`).join(", ")} }`,
    `{ ${entries.map(([k, v]) => `${snake(k)} = ${literal(v)}`).join(", ")} }`,
  );
}

/**
 * An argument set to another resource's attribute: `groupId: group.id` in a program,
 * `group_id = cloudcost_cloud_group.group.id` in HCL (TYPE is the Terraform resource type; a VARIABLE that is
 * already a Terraform address, as the plan's resources are named, is used as it is).
 */
export function referenceExample(argument: string, variable: string, terraformType: string, attribute: string): string {
  const address =
    variable.startsWith(`${terraformType}.`) || variable.includes(`.${terraformType}.`) ? variable : `${terraformType}.${variable}`;
  return registered(`${argument}: ${variable}.${attribute}`, `${snake(argument)} = ${address}.${attribute}`);
}

/** MESSAGE with every example made here in HCL's syntax: what the Terraform door shows. */
export function examplesInHcl(message: string): string {
  let out = message;
  for (const [pulumi, hcl] of HCL_OF) out = out.split(pulumi).join(hcl);
  return out;
}
