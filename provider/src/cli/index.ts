#!/usr/bin/env node
import { parseArgs } from "node:util";
import { closeAllPools } from "@cloudcost/api";
import { importPlanCommand } from "./import-plan";

/*
 * `cloudcost-pulumi`: the provider package's command line. Each command lives in a file of its own and is
 * registered here by name.
 */
const USAGE = "usage: cloudcost-pulumi import-plan --org <organization id> [--api-url <url>] > import.json";

const commands: Record<string, (argv: string[]) => Promise<void>> = {
  "import-plan": async (argv) => {
    const { values } = parseArgs({ args: argv, options: { org: { type: "string" }, "api-url": { type: "string" } }, strict: true });
    await importPlanCommand({ org: values.org, apiUrl: values["api-url"] }, (text) => process.stdout.write(text));
  },
};

async function main(argv: string[]): Promise<void> {
  const [name = "", ...rest] = argv;
  const command = commands[name];
  if (!command) throw new Error(name ? `unknown command ${name}\n${USAGE}` : USAGE);
  await command(rest);
}

main(process.argv.slice(2))
  .catch((e: unknown) => {
    // The message only: no stack frames, and it never carries a credential (ApiError and SettingsError say which setting).
    process.stderr.write(`cloudcost-pulumi: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  })
  .finally(() => closeAllPools());
