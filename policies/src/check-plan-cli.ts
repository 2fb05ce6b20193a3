// Everything from the library (bundled apart, required beside: one copy of the policies in the package);
// it first stops an unsupported @pulumi/policy (or @pulumi/pulumi) with an error naming the version needed.
import { FORMATS, PlanInputError, defaultPolicies, planVerdict, previewVerdict, render, type Format, type Verdict } from "./library";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/*
 * `cloudcost-policies check-plan PLAN.json` and `check-preview PREVIEW.json`: the policy pack's policies judge a
 * Terraform/OpenTofu plan or a Pulumi preview before it is applied (README, "Terraform and OpenTofu" and
 * "Reports for CI"), with waivers, the budget the change adds, and every format (issue 40). Exit 0: no
 * mandatory (or unwaived waivable) violation; 1: at least one; 2: the command could not judge (bad arguments,
 * unreadable or malformed files, a refused waiver).
 */

const USAGE = `Usage: cloudcost-policies check-plan <plan.json> [options]
       cloudcost-policies check-preview <preview.json> [options]

  <plan.json>      the plan in JSON: tofu show -json plan.out > plan.json (or terraform show -json)
  <preview.json>   the preview in JSON: pulumi preview --json --show-sames > preview.json
  --config <file>  the policy configuration, the same file pulumi's --policy-pack-config takes
  --waivers <file> waivers: { "waivers": [{ resource, policy, reason, owner, expires }] }
  --source <dir>   where the .tf files (check-plan) or the Pulumi project (check-preview) are, for file and
                   line of each finding; paths are printed relative to the current directory (default: .)
  --format <f>[=<file>]  ${FORMATS.join(", ")} (default text); repeat it for several, each to a file;
                   github also appends the markdown summary to $GITHUB_STEP_SUMMARY when it is set
  --json           the same as --format json

Exits 1 when a mandatory (or unwaived waivable) policy is violated, 0 otherwise, 2 when the change cannot be judged.`;

class UsageError extends Error {}

type Command = "check-plan" | "check-preview";

interface Args {
  command: Command;
  input: string;
  config?: string;
  waivers?: string;
  source: string;
  outputs: { format: Format; file?: string }[];
}

function parseFormat(value: string | undefined): { format: Format; file?: string } {
  if (value === undefined) throw new UsageError("--format needs a format");
  const [format, ...file] = value.split("=");
  if (!FORMATS.includes(format as Format)) throw new UsageError(`unknown format "${format}": one of ${FORMATS.join(", ")}`);
  return { format: format as Format, ...(file.length ? { file: file.join("=") } : {}) };
}

function parseArgs(argv: readonly string[]): Args | "help" {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") return "help";
  if (command !== "check-plan" && command !== "check-preview")
    throw new UsageError(command ? `unknown command "${command}"` : "no command given");
  let input: string | undefined;
  const args: Omit<Args, "input"> = { command, source: ".", outputs: [] };
  const value = (name: string, i: number) => {
    const v = rest[i];
    if (v === undefined) throw new UsageError(`${name} needs a ${name === "--source" ? "directory" : "file"}`);
    return v;
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [name, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (arg === "--help" || arg === "-h") return "help";
    else if (arg === "--json") args.outputs.push({ format: "json" });
    else if (name === "--format") args.outputs.push(parseFormat(inline ?? rest[++i]));
    else if (name === "--config") args.config = inline ?? value(name, ++i);
    else if (name === "--waivers") args.waivers = inline ?? value(name, ++i);
    else if (name === "--source") args.source = inline ?? value(name, ++i);
    else if (arg.startsWith("-")) throw new UsageError(`unknown option "${arg}"`);
    else if (input === undefined) input = arg;
    else throw new UsageError(`one ${command === "check-plan" ? "plan" : "preview"} at a time: "${input}" and "${arg}"`);
  }
  if (input === undefined) throw new UsageError(`the ${command === "check-plan" ? "plan" : "preview"} file is missing`);
  if (args.outputs.length === 0) args.outputs.push({ format: "text" });
  if (args.outputs.filter((o) => o.file === undefined).length > 1)
    throw new UsageError("only one format can go to standard output: give the others a file (--format sarif=results.sarif)");
  return { ...args, input };
}

/** Reads FILE as JSON; every failure names the file and what to do. */
function readJson(file: string, what: "plan" | "preview" | "config" | "waivers"): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const hint =
      what === "plan"
        ? " (a saved plan is binary: run `tofu show -json plan.out > plan.json` first)"
        : what === "preview"
          ? " (run `pulumi preview --json --show-sames > preview.json`)"
          : "";
    throw new UsageError(`${file} is not JSON${hint}`, { cause: error });
  }
}

const version = (): string => {
  try {
    return (JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
};

async function judge(args: Args): Promise<Verdict> {
  const input = readJson(args.input, args.command === "check-plan" ? "plan" : "preview");
  const options = {
    config: args.config === undefined ? {} : readJson(args.config, "config"),
    ...(args.waivers === undefined ? {} : { waivers: readJson(args.waivers, "waivers") }),
    sourceDir: args.source,
    sourceRoot: ".",
    today: new Date().toISOString().slice(0, 10),
  };
  try {
    return args.command === "check-plan"
      ? await planVerdict(input, defaultPolicies(), options)
      : await previewVerdict(input, defaultPolicies(), options);
  } catch (error) {
    if (error instanceof PlanInputError) {
      const file = { plan: args.input, preview: args.input, config: args.config, waivers: args.waivers }[error.input];
      throw new UsageError(`${file}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const verdict = await judge(args);
  for (const name of verdict.ignoredConfig)
    process.stderr.write(
      `cloudcost-policies: warning: the policy configuration names no policy called "${name}"; ignored, as pulumi does\n`,
    );
  for (const { format, file } of args.outputs) {
    const out = render(format, verdict, version());
    if (file === undefined) process.stdout.write(out);
    else writeFileSync(file, out);
    // GitHub's job summary: the Markdown report beside the annotations.
    if (format === "github" && process.env.GITHUB_STEP_SUMMARY)
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, render("markdown", verdict, version()));
  }
  return verdict.passed ? 0 : 1;
}

/**
 * Ends once everything written is flushed: the forecast policy's keep-alive connections to the API would
 * otherwise hold the process open.
 */
const exit = (code: number) => process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));

main(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`cloudcost-policies: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError && /^(unknown|no command|the (plan|preview) file|one (plan|preview)|--|only one)/.test(error.message))
    process.stderr.write(`\n${USAGE}\n`);
  exit(2);
});
