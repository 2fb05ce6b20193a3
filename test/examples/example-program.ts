import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { runProgram } from "../../scripts/demo/program";

export const EXAMPLES = join(__dirname, "..", "..", "examples");

/** Config values of an example's `Pulumi.<stack>.yaml`, re-keyed from the example's project to `project`. */
export function stackConfigOf(example: string, stack: string, project: string): Record<string, string> {
  const file = parse(readFileSync(join(EXAMPLES, example, `Pulumi.${stack}.yaml`), "utf8")) as { config: Record<string, unknown> };
  return Object.fromEntries(
    Object.entries(file.config).map(([key, value]) => [key.replace(/^[^:]+:/, `${project}:`), typeof value === "string" ? value : JSON.stringify(value)]),
  );
}

/** Runs `examples/<example>/index.ts` under the current mocks (see scripts/demo/program.ts). */
export function runExample(example: string, config: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return runProgram(join(EXAMPLES, example), config);
}
