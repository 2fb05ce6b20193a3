import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { runProgram } from "../../scripts/demo/program";
import { Engine, DECLARE_PROJECT, DECLARE_STACK, type Diagnostic, type RunningPolicyPack } from "@cloudcost/testkit";

export const EXAMPLES = join(__dirname, "..", "..", "examples");

/** Config values of an example's `Pulumi.<stack>.yaml`, re-keyed from the example's project to `project`. */
export function stackConfigOf(example: string, stack: string, project: string): Record<string, string> {
  const file = parse(readFileSync(join(EXAMPLES, example, `Pulumi.${stack}.yaml`), "utf8")) as { config: Record<string, unknown> };
  return Object.fromEntries(
    Object.entries(file.config).map(([key, value]) => [
      key.replace(/^[^:]+:/, `${project}:`),
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
}

/** Runs `examples/<example>/index.ts` under the current mocks (see scripts/demo/program.ts). */
export function runExample(example: string, config: Record<string, string> = {}): Promise<Record<string, unknown>> {
  return runProgram(join(EXAMPLES, example), config);
}

/**
 * What `pulumi preview --policy-pack` reports for an example, through the engine rules (engine.ts): each
 * resource Checked by the real provider host, Remediated and Analyzed, then AnalyzeStack over the
 * preview's outputs (the checked inputs of what is not created yet). The API is never called in a preview.
 */
export async function previewDiagnostics(
  pack: RunningPolicyPack,
  example: string,
  config: Record<string, string> = {},
): Promise<{ resources: string[]; diagnostics: Diagnostic[] }> {
  const engine = new Engine({
    config: { "cloudcost:apiUrl": "http://127.0.0.1:9/api/v1" },
    policyPack: pack,
    project: DECLARE_PROJECT,
    stack: DECLARE_STACK,
  });
  try {
    const result = await engine.runProgram(() => runExample(example, config), { preview: true });
    const resources = result.steps.filter((s) => s.urn.includes("::pulumi-nodejs:dynamic/cloudcost:")).map((s) => s.urn);
    return { resources, diagnostics: result.diagnostics };
  } finally {
    await engine.stop();
  }
}
