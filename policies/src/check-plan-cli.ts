// Everything from the library (bundled apart, required beside: one copy of the policies in the package);
// it first stops an unsupported @pulumi/policy (or @pulumi/pulumi) with an error naming the version needed.
import { PlanInputError, defaultPolicies, judgePlan, type PlanVerdict } from "./library";
import { readFileSync } from "node:fs";

/*
 * `cloudcost-policies check-plan PLAN.json [--config FILE] [--json]`: the policy pack's policies judge a
 * Terraform/OpenTofu plan before it is applied (README, "Terraform and OpenTofu"). Exit 0: no mandatory
 * violation; 1: at least one; 2: the command could not judge (bad arguments, unreadable or malformed files).
 */

const USAGE = `Usage: cloudcost-policies check-plan <plan.json> [--config <policy-config.json>] [--json]

  <plan.json>   the plan in JSON: tofu show -json plan.out > plan.json (or terraform show -json)
  --config      the policy configuration, the same file pulumi's --policy-pack-config takes
  --json        print the verdict as JSON instead of one line per violation

Exits 1 when a mandatory policy is violated, 0 otherwise, 2 when the plan cannot be judged.`;

class UsageError extends Error {}

interface Args {
  plan: string;
  config?: string;
  json: boolean;
}

function parseArgs(argv: readonly string[]): Args | "help" {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") return "help";
  if (command !== "check-plan") throw new UsageError(command ? `unknown command "${command}"` : "no command given");
  let plan: string | undefined;
  let config: string | undefined;
  let json = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--json") json = true;
    else if (arg === "--config") {
      config = rest[++i];
      if (config === undefined) throw new UsageError("--config needs a file");
    } else if (arg.startsWith("--config=")) config = arg.slice("--config=".length);
    else if (arg.startsWith("-")) throw new UsageError(`unknown option "${arg}"`);
    else if (plan === undefined) plan = arg;
    else throw new UsageError(`one plan at a time: "${plan}" and "${arg}"`);
  }
  if (plan === undefined) throw new UsageError("the plan file is missing");
  return { plan, config, json };
}

/** Reads FILE as JSON; every failure names the file and what to do. */
function readJson(file: string, what: "plan" | "config"): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const hint = what === "plan" ? " (a saved plan is binary: run `tofu show -json plan.out > plan.json` first)" : "";
    throw new UsageError(`${file} is not JSON${hint}`, { cause: error });
  }
}

function report(verdict: PlanVerdict): string {
  const lines = verdict.violations.map(
    (v) => `${v.enforcementLevel}: ${v.address}${v.attribute ? `: ${v.attribute}` : ""}: ${v.message} (${v.policy})`,
  );
  const mandatory = verdict.violations.filter((v) => v.enforcementLevel === "mandatory").length;
  const advisory = verdict.violations.length - mandatory;
  const judged = `${verdict.resources} cloudcost resource(s) judged`;
  lines.push(
    verdict.violations.length === 0
      ? `${judged}: no policy violation.`
      : `${judged}: ${mandatory} mandatory and ${advisory} advisory violation(s)${mandatory ? "; the plan must not be applied." : "."}`,
  );
  return `${lines.join("\n")}\n`;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const plan = readJson(args.plan, "plan");
  const config = args.config === undefined ? {} : readJson(args.config, "config");
  let verdict: PlanVerdict;
  try {
    verdict = await judgePlan(plan, defaultPolicies(), config);
  } catch (error) {
    if (error instanceof PlanInputError)
      throw new UsageError(`${error.input === "plan" ? args.plan : args.config}: ${error.message}`, { cause: error });
    throw error;
  }
  for (const name of verdict.ignoredConfig)
    process.stderr.write(
      `cloudcost-policies: warning: the policy configuration names no policy called "${name}"; ignored, as pulumi does\n`,
    );
  process.stdout.write(args.json ? `${JSON.stringify(verdict, null, 2)}\n` : report(verdict));
  return verdict.violations.some((v) => v.enforcementLevel === "mandatory") ? 1 : 0;
}

/**
 * Ends once everything written is flushed: the forecast policy's keep-alive connections to the API would
 * otherwise hold the process open.
 */
const exit = (code: number) => process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));

main(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`cloudcost-policies: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError && /^(unknown|no command|the plan file|one plan|--config)/.test(error.message))
    process.stderr.write(`\n${USAGE}\n`);
  exit(2);
});
