import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { runProgram } from "../../scripts/demo/program";
import { declareResources, type DeclaredResource, type Diagnostic, type RunningPolicyPack } from "../harness/policy-pack";

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

/**
 * What `pulumi preview --policy-pack` reports for an example: its cloudcost resources declared as in a
 * preview, each analyzed (Analyze), then the stack (AnalyzeStack). Every diagnostic carries its
 * resource's URN (Analyze answers without one).
 */
export async function previewDiagnostics(pack: RunningPolicyPack, example: string, config: Record<string, string> = {}): Promise<{ resources: DeclaredResource[]; diagnostics: Diagnostic[] }> {
  const declared = await declareResources(async () => (await runExample(example, config), []), { preview: true });
  const resources = declared.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/cloudcost:"));
  const perResource = await Promise.all(resources.map(async (r) => (await pack.analyze(r)).diagnostics.map((d) => ({ ...d, urn: r.urn }))));
  return { resources, diagnostics: [...perResource.flat(), ...(await pack.analyzeStack(resources)).diagnostics] };
}
