import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";

/**
 * Runs a Pulumi program folder's `index.ts` the way the Pulumi language host does — by loading the
 * module — with `config` as the stack config, under whatever engine (mocks) is set. Resolves with the
 * program's exports (its stack outputs) once every resource registration it started has been answered.
 * The module is loaded afresh each time, so one process can preview and then deploy the same program.
 */
export async function runProgram(dir: string, config: Record<string, string> = {}): Promise<Record<string, unknown>> {
  pulumi.runtime.setAllConfig(config);
  const file = require.resolve(join(dir, "index.ts"));
  delete require.cache[file];
  const exports = require(file) as Record<string, unknown>;
  await (require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> }).waitForRPCs();
  return exports;
}
