#!/usr/bin/env node
import { accountAdd, clientCreate, clientDelete, orgCreate, tokenCreate, tokenRevoke } from "./cli/admin-commands";
import { serve } from "./cli/serve";
import { UsageError } from "./errors";

const USAGE = `usage: cloudcost-sandbox <command> [--data DIR]
  serve [--port 8787] [--host 127.0.0.1] [--public-url URL] [--rate-limit 600] [--scan-step-ms 1000] [--token-ttl 3600] [--code-ttl 300] [--retention 86400]
        [--faults RATE --fault-seed N --fault-kinds 429,503,reset,latency,reset-after --fault-latency-ms 1000]
  org create NAME [--permissions read,write,run] [--json]
  account add --org NAME --provider aws|azure --id ID [--name LABEL] [--json]
  client create --org NAME --scopes read,write,run [--name LABEL] [--json]
  client delete --org NAME CLIENT_ID
  token create --org NAME --scopes read,write,run [--expires-in SECONDS] [--label LABEL] [--json]
  token revoke --org NAME TOKEN
--data defaults to $CLOUDCOST_SANDBOX_DATA or .sandbox/`;

type Command = (args: readonly string[], out: (line: string) => void) => void | Promise<void>;

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: (args) => serve(args),
  "org create": orgCreate,
  "account add": accountAdd,
  "client create": clientCreate,
  "client delete": clientDelete,
  "token create": tokenCreate,
  "token revoke": tokenRevoke,
};

function resolve(argv: readonly string[]): { command: Command; args: readonly string[] } {
  if (argv[0] === "serve") return { command: COMMANDS.serve!, args: argv.slice(1) };
  const command = COMMANDS[`${argv[0]} ${argv[1]}`];
  if (command) return { command, args: argv.slice(2) };
  if (argv.length === 0 || argv[0] === "help" || argv[0] === "--help") {
    console.log(USAGE);
    process.exit(0);
  }
  throw new UsageError(`unknown command "${argv.slice(0, 2).join(" ")}"; run cloudcost-sandbox --help`);
}

/** Exit codes: 0 done, 1 the command failed (e.g. unknown organization), 2 bad arguments. Never a stack trace. */
async function main(argv: readonly string[]): Promise<void> {
  try {
    const { command, args } = resolve(argv);
    await command(args, (line) => console.log(line));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`error: ${message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}

void main(process.argv.slice(2));
