/**
 * `pulumi import` writes TypeScript and Python through our language hosts' GenerateProgram (scripts/pulumi-cli/),
 * offline, on the native plugin's schema: an alert created in the portal is adopted by its id alone into a
 * project of each language, and the code names the generated SDK's resource with the alert's values. The Python
 * code is then the program itself (the SDK from sdk/python installed) and the next preview shows no changes.
 * (YAML: native-plugin.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PulumiStack } from "@cloudcost/testkit";
import { NATIVE_PLUGIN_YAML, credentials, pythonEnvironment, useEngineFixture } from "./support";

const f = useEngineFixture();
const folders: string[] = [];
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project of RUNTIME with FILES, finding the plugin in native/bin, as a stack with the sandbox's credentials. */
async function project(name: string, runtime: string, files: Record<string, string>): Promise<PulumiStack> {
  const dir = mkdtempSync(join(tmpdir(), `cloudcost-import-${name}-`));
  folders.push(dir);
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\nruntime:\n${runtime}${NATIVE_PLUGIN_YAML}`);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return f.workspace.initStack("dev", dir, credentials(f.sandbox.baseUrl, f.token));
}

/** An alert (and its group) made through the API, as a portal user makes them. */
async function portalAlert(name: string) {
  const group = await f.api.createGroup({ name: `${name} group` });
  const alert = await f.api.createAlert({
    name: `${name} budget`,
    amount: 777,
    currency: "EUR",
    period: "quarterly",
    groupId: group.id,
    thresholds: [{ percent: 90, basis: "actual" }],
    recipients: ["ops@example.com"],
  });
  return { group, alert };
}

async function importAlert(stack: PulumiStack, id: string, out: string): Promise<string> {
  const imported = await stack.run(["import", "cloudcost:index:BudgetAlert", "imported-budget", id, "--yes", "--out", out]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  return readFileSync(out, "utf8");
}

test("TypeScript: the alert as `new cloudcost.BudgetAlert(…)` of @cloudcost/pulumi-native, with its values", async () => {
  const { group, alert } = await portalAlert("TypeScript");
  const stack = await project("import-typescript", "  name: nodejs\n", { "index.ts": "export {};\n" });
  const code = await importAlert(stack, alert.id, join(stack.cwd, "imported.ts"));
  expect(code).toContain('import * as cloudcost from "@cloudcost/pulumi-native";');
  expect(code).toContain('const imported_budget = new cloudcost.BudgetAlert("imported-budget", {');
  expect(code).toMatch(/amount: 777,/);
  expect(code).toContain(`groupId: "${group.id}",`);
  expect(code).toContain('period: "quarterly",');
  expect(code).toMatch(/protect: true/);
  expect((await f.api.getAlert(alert.id)).updatedAt).toBe(alert.updatedAt);
});

test("Python: the alert as `cloudcost.BudgetAlert(…)` of pulumi_cloudcost; as the program, the next preview shows no changes", async () => {
  const { group, alert } = await portalAlert("Python");
  const venv = await pythonEnvironment();
  folders.push(venv);
  const stack = await project("import-python", "  name: python\n  options:\n    virtualenv: venv\n", { "__main__.py": "import pulumi\n" });
  symlinkSync(venv, join(stack.cwd, "venv"), "dir");
  const code = await importAlert(stack, alert.id, join(stack.cwd, "imported.py"));
  expect(code).toContain("import pulumi_cloudcost as cloudcost");
  expect(code).toContain('imported_budget = cloudcost.BudgetAlert("imported-budget",');
  expect(code).toContain("amount=float(777),");
  expect(code).toContain(`group_id="${group.id}"`);

  writeFileSync(join(stack.cwd, "__main__.py"), code);
  const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
  expect([preview.code, preview.stdout + preview.stderr]).toEqual([0, expect.stringContaining("unchanged")]);
  expect((await f.api.getAlert(alert.id)).updatedAt).toBe(alert.updatedAt);
}, 600_000);
