import { closeAllPools, type CloudCostClient, type Organization } from "@cloudcost/api";
import type { ResourceKind } from "../dynamic-provider";
import { nativeTypeToken } from "../resource-class";
import { specs } from "../runtime";
import { clientFor } from "../runtime/clients";
import type { ConfigLookup } from "../runtime/settings";

/*
 * `cloudcost-pulumi import-plan --org <id or name>`: what exists in an organization, as Pulumi's bulk import file
 * (`pulumi import --file import.json`, pulumi/pulumi pkg/cmd/pulumi/operations/import.go `importFile`): one
 * entry per Cloud Group, budget alert and scheduled report, each with a readable name and its id, under the
 * native plugin's type tokens. `pulumi import` then reads each object (Read with the id alone), writes the
 * program in the project's language, and turns a value equal to another imported object's id (an alert's
 * `groupId`) into a reference to it (`platform.id`), so dependencies come out by reference.
 */

/** One `resources` entry of Pulumi's import file. */
export interface ImportSpec {
  type: string;
  name: string;
  id: string;
}

export interface ImportFile {
  resources: ImportSpec[];
}

/** Groups first: alerts and reports refer to them. */
const KINDS: readonly ResourceKind[] = ["CloudGroup", "BudgetAlert", "ScheduledReport"];

/** A Pulumi resource name from an object's display name: lower-case words joined by dashes, unique in the file. */
function nameFor(display: string, kind: ResourceKind, taken: Set<string>): string {
  const slug =
    display
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || kind.toLowerCase();
  // Names start with a letter so that every language's generated variable name is valid.
  const base = /^[a-z]/.test(slug) ? slug : `${kind.replace(/[a-z]/g, "").toLowerCase()}-${slug}`;
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/**
 * The import file for everything the client's organization has; fails when ORG is neither its id nor its name
 * (a user knows the name, "demo", before the id: both are accepted, and the refusal prints both).
 */
export async function importPlan(client: CloudCostClient, org: string): Promise<ImportFile> {
  const own: Organization = await client.getOrganization();
  if (own.id !== org && own.name !== org)
    throw new Error(
      `the credentials belong to organization ${own.name} (id ${own.id}), not ${org}: pass --org ${own.id} (or --org ${own.name}), or set CLOUDCOST_API_TOKEN (or client credentials) of ${org}`,
    );
  const taken = new Set<string>();
  const resources: ImportSpec[] = [];
  for (const kind of KINDS) {
    for await (const live of specs[kind].list(client, 200)) {
      const display = (live as { id: string; name?: unknown }).name;
      resources.push({
        type: nativeTypeToken(kind),
        name: nameFor(typeof display === "string" ? display : live.id, kind, taken),
        id: live.id,
      });
    }
  }
  return { resources };
}

/** The command: settings from the CLOUDCOST_* environment (and --api-url), the plan as JSON on stdout. */
export async function importPlanCommand(args: { org?: string; apiUrl?: string }, write: (text: string) => void): Promise<void> {
  if (!args.org) throw new Error("--org <organization id or name> is required (both are what GET /organization answers: id org_…, name)");
  const config: ConfigLookup = (key) => (key === "apiUrl" ? args.apiUrl : undefined);
  try {
    write(`${JSON.stringify(await importPlan(clientFor(config), args.org), null, 2)}\n`);
  } finally {
    await closeAllPools(); // keep-alive connections would hold the process open
  }
}
