#!/usr/bin/env node
import { parseArgs } from "node:util";
import { importPlanCommand } from "./import-plan";
import { importTerraformCommand } from "./import-terraform";
import { pendingCommand } from "./pending-command";

const USAGE = `Usage: cloudcost-pulumi <command> [options]

Commands:
  pending   What an interrupted \`pulumi up\` or \`destroy\` left pending in a stack, and how to repair
            it; objects the stack created that no state holds are listed.
    --stack NAME   the stack (default: the selected one)
    --cwd DIR      the Pulumi project folder (default: this one)
    --apply        repair: write each object found into the state (finishing an interrupted replace),
                   run the refresh, and check the state after it (exit 1 naming what is not done);
                   first, in a file backend, clear the lock of the interrupted process and an empty
                   attributes file it left
    --json         print the findings as JSON
  import-plan   Everything an organization has (groups, alerts, reports) as Pulumi's bulk import file,
            for \`pulumi import --file\` and the native provider.
    --org ORG      the organization's id (org_…) or name (must be the one the credentials belong to)
    --api-url URL  the API base URL (default: CLOUDCOST_API_URL)
    --format F     pulumi (default: the import file) or terraform (import blocks for
                   \`tofu plan -generate-config-out=generated.tf\`)

Credentials: the stack's cloudcost:* config (as \`pulumi up\` reads it), then CLOUDCOST_* variables
(import-plan: CLOUDCOST_* variables only).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "pending") {
    const { values } = parseArgs({
      args: rest,
      options: { stack: { type: "string" }, cwd: { type: "string" }, apply: { type: "boolean" }, json: { type: "boolean" } },
      strict: true,
    });
    return pendingCommand(values);
  }
  if (command === "import-plan") {
    const { values } = parseArgs({
      args: rest,
      options: { org: { type: "string" }, "api-url": { type: "string" }, format: { type: "string", default: "pulumi" } },
      strict: true,
    });
    const formats = { pulumi: importPlanCommand, terraform: importTerraformCommand };
    const format = values.format;
    if (!Object.hasOwn(formats, format)) throw new Error(`--format must be pulumi or terraform, not ${JSON.stringify(format)}`);
    await formats[format as keyof typeof formats]({ org: values.org, apiUrl: values["api-url"] }, (text) => process.stdout.write(text));
    return 0;
  }
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  process.stderr.write(`cloudcost-pulumi: unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    // A message, never a stack trace; the cause's message too, when it adds something.
    const e = error instanceof Error ? error : new Error(String(error));
    const cause = e.cause instanceof Error && !e.message.includes(e.cause.message) ? ` (${e.cause.message})` : "";
    process.stderr.write(`cloudcost-pulumi: ${e.message}${cause}\n`);
    process.exitCode = 1;
  },
);
