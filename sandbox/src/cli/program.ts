import { EventType } from "@cloudcost/api/contract";
import { Command, Option } from "commander";
import { accountAdd, clientCreate, clientDelete, orgCreate, tokenCreate, tokenRevoke } from "./admin-commands";
import { toValues, type Output, type Values } from "./arguments";

/**
 * The event commands, loaded when one runs: they bring the event engine and its e-mail relay (nodemailer), ~0.04 CPU s
 * that every other command (`token create`, which the tests run hundreds of times) would pay for nothing (issue 39).
 */
const eventCommands = (): Promise<typeof import("./event-commands")> => import("./event-commands.js");

const DATA_HELP = "the data folder (default: $CLOUDCOST_SANDBOX_DATA or .sandbox/)";
const SCOPES_HELP = "comma-separated scopes: read, write, run";
const ORG_HELP = "the organization";
const LIMIT_HELP = "list at most this many, newest first (default 100)";

/** Adds the options every command takes and turns commander's camelCase options into `--kebab` names. */
function leaf(command: Command, run: (values: Values, args: string[]) => void | Promise<void>): Command {
  return command.option("--data <dir>", DATA_HELP).action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    await run(toValues(self.opts()), self.args.slice(0, self.registeredArguments.length));
  });
}

/**
 * The command tree on commander: `--help` on every command, unknown options and missing arguments refused
 * by the library (exit 2, see cli.ts); the values themselves are checked by ./arguments with the rule stated.
 */
export function buildProgram(out: Output): Command {
  const program = new Command("cloudcost-sandbox")
    .description("A local, persistent Cloud Cost Management API with an OAuth server and a portal.")
    .showSuggestionAfterError(false)
    .exitOverride();
  program.configureHelp({ sortSubcommands: false });

  leaf(
    program
      .command("serve")
      .description("Serve the API, the OAuth endpoints and the portal until SIGINT or SIGTERM")
      .option("--port <port>", "TCP port; 0 picks a free one", "8787")
      .option("--host <host>", "interface to listen on", "127.0.0.1")
      .option("--public-url <url>", "the origin clients use when it differs from the listen address (behind a proxy)")
      .option("--rate-limit <n>", "requests per minute per token; 0 turns the limit off")
      .option("--scan-step-ms <ms>", "how long each step of a scan takes")
      .option("--token-ttl <seconds>", "lifetime of OAuth access tokens")
      .option("--code-ttl <seconds>", "lifetime of OAuth authorization codes (at most 600)")
      .option("--retention <seconds>", "how long finished scans and idempotency records are kept")
      .option("--faults <rate>", "inject faults into this fraction of API requests (0 to 1)")
      .option("--fault-seed <n>", "seed of the fault sequence (needs --faults)")
      .option("--fault-kinds <kinds>", "comma-separated: 429, 503, reset, latency, reset-after (needs --faults)")
      .option("--fault-latency-ms <ms>", "delay of the latency fault (needs --faults)")
      .option("--evaluate-every-ms <ms>", "how often alerts and report schedules are evaluated (default 60000)")
      .option("--webhook-backoff-ms <ms>", "delay before the first webhook retry; it doubles each time (default 5000)")
      .option("--webhook-timeout-ms <ms>", "bound on one webhook attempt (default 10000)")
      .option("--smtp-url <url>", "also relay captured e-mail to this SMTP server (smtp://host:port)"),
    // Loaded for `serve` alone: the HTTP server, the portal and the OpenAPI document are most of what the CLI would
    // load, and every other command (say `token create`, which the tests run hundreds of times) only reads and
    // writes rows of the data folder.
    async (values) => (await import("./serve.js")).serve(values, out),
  );

  const org = program.command("org").description("Manage organizations");
  leaf(
    org
      .command("create")
      .description("Create an organization")
      .argument("<name>", "1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit")
      .option("--permissions <scopes>", `what its tokens may ever do; ${SCOPES_HELP} (default: all)`)
      .option("--json", "print JSON"),
    (values, [name]) => orgCreate(values, name!, out),
  );

  const account = program.command("account").description("Manage connected cloud accounts");
  leaf(
    account
      .command("add")
      .description("Connect a cloud account to an organization")
      .requiredOption("--org <name>", "the organization")
      .addOption(new Option("--provider <provider>", "the cloud").choices(["aws", "azure"]).makeOptionMandatory())
      .requiredOption("--id <id>", "AWS: 12 digits; Azure: a subscription GUID")
      .option("--name <label>", "a display name (1 to 100 characters)")
      .option("--json", "print JSON"),
    (values) => accountAdd(values, out),
  );

  const client = program.command("client").description("Manage OAuth clients (client credentials)");
  leaf(
    client
      .command("create")
      .description("Create a confidential client; its secret is shown this once")
      .requiredOption("--org <name>", "the organization")
      .option("--scopes <scopes>", `${SCOPES_HELP} (default: all)`)
      .option("--name <label>", "a display name (1 to 100 characters)", "cli")
      .option("--json", "print JSON"),
    (values) => clientCreate(values, out),
  );
  leaf(
    client
      .command("delete")
      .description("Delete a client; every token it issued stops working")
      .argument("<client-id>", "the client's client_id")
      .requiredOption("--org <name>", "the organization"),
    (values, [clientId]) => clientDelete(values, clientId!, out),
  );

  const token = program.command("token").description("Manage API tokens");
  leaf(
    token
      .command("create")
      .description("Issue an API token (it never expires unless --expires-in is given)")
      .requiredOption("--org <name>", "the organization")
      .option("--scopes <scopes>", `${SCOPES_HELP} (default: the organization's permissions)`)
      .option("--expires-in <seconds>", "lifetime in seconds, a whole number of at least 1")
      .option("--label <label>", "a name that tells this token apart in the portal (1 to 100 characters)", "cli")
      .option("--json", "print JSON"),
    (values) => tokenCreate(values, out),
  );
  leaf(
    token
      .command("revoke")
      .description("Revoke an API token")
      .argument("<token>", "the token itself")
      .requiredOption("--org <name>", "the organization"),
    (values, [secret]) => tokenRevoke(values, secret!, out),
  );
  const clock = program.command("clock").description("Show or move an organization's clock (sandbox controls)");
  leaf(
    clock
      .command("show")
      .description("Print the organization's time and whether it is set")
      .requiredOption("--org <name>", ORG_HELP)
      .option("--json", "print JSON"),
    async (values) => (await eventCommands()).clockShow(values, out),
  );
  leaf(
    clock
      .command("set")
      .description("Set the organization's clock (forward only); alerts and reports due up to then run before it returns")
      .argument("<time>", "an ISO 8601 date-time with a time zone, e.g. 2026-12-01T00:00:00Z")
      .requiredOption("--org <name>", ORG_HELP)
      .option("--json", "print JSON"),
    async (values, [time]) => (await eventCommands()).clockChange(values, "set", time!, out),
  );
  leaf(
    clock
      .command("advance")
      .description("Move the organization's clock forward; alerts and reports due up to then run before it returns")
      .argument("<duration>", "a positive ISO 8601 duration, e.g. P8D, PT1H, P1M")
      .requiredOption("--org <name>", ORG_HELP)
      .option("--json", "print JSON"),
    async (values, [duration]) => (await eventCommands()).clockChange(values, "advance", duration!, out),
  );

  const spend = program.command("spend").description("Inject spend (sandbox controls)");
  leaf(
    spend
      .command("add")
      .description("Add spend on the organization's current day; alerts see it at once")
      .requiredOption("--org <name>", ORG_HELP)
      .requiredOption("--account <id>", "a connected account: AWS 12 digits, Azure a subscription GUID")
      .requiredOption(
        "--service <name>",
        'the service the spend is booked on, as the cost data names it and of the account\'s provider, e.g. "Amazon EC2" or "Virtual Machines"',
      )
      .requiredOption("--amount <amount>", "in the organization's currency, greater than 0, at most two decimal places")
      .option("--json", "print JSON"),
    async (values) => (await eventCommands()).spendAdd(values, out),
  );

  const outbox = program.command("outbox").description("Captured e-mail (sandbox controls)");
  leaf(
    outbox
      .command("list")
      .description("List captured messages, newest first")
      .requiredOption("--org <name>", ORG_HELP)
      .option("--limit <n>", LIMIT_HELP)
      .option("--json", "print JSON"),
    async (values) => (await eventCommands()).outboxList(values, out),
  );

  const events = program.command("events").description("Events: alerts that fired, reports that were delivered");
  leaf(
    events
      .command("list")
      .description("List the organization's events, newest first")
      .requiredOption("--org <name>", ORG_HELP)
      .addOption(new Option("--type <type>", "only events of this type").choices(EventType.options))
      .option("--limit <n>", LIMIT_HELP)
      .option("--json", "print JSON"),
    async (values) => (await eventCommands()).eventsList(values, out),
  );
  return program;
}
