/**
 * The native plugin (`pulumi-resource-cloudcost`, native/) under the real CLI: a YAML program deploys through
 * it, `pulumi import` adopts an object with its id alone and writes its code, and an organization becomes a
 * program through `cloudcost-pulumi import-plan` and `pulumi import --file` — each followed by a preview that
 * must show no changes. YAML because its language host is the one this machine can build with a code
 * generator; the TypeScript and Python SDKs and hosts are issue 26's other half.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { PulumiStack } from "@cloudcost/testkit";
import { REPO, organizationIds, useEngineFixture } from "./support";

const fx = useEngineFixture();
const NATIVE_BIN = join(REPO, "native", "bin");
const CLI = join(REPO, "provider", "dist", "cli", "main.js");

/**
 * A YAML project that finds the plugin in native/bin (Pulumi.yaml `plugins.providers`), with BODY after its
 * header; or in PLUGIN_PATH (the source folder native/, which its PulumiPlugin.yaml makes a Node plugin).
 */
function yamlProject(name: string, body = "", pluginPath = NATIVE_BIN): string {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-native-"));
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    [`name: ${name}`, "runtime: yaml", "plugins:", "  providers:", "    - name: cloudcost", `      path: ${pluginPath}`, body].join("\n"),
  );
  return dir;
}

const DEPLOYED = `
config:
  hook:
    type: string
    secret: true
resources:
  platform:
    type: cloudcost:index:CloudGroup
    properties:
      name: Platform native
      awsAccountIds: ["111122223333"]
  budget:
    type: cloudcost:index:BudgetAlert
    properties:
      name: Platform budget
      amount: 1200.5
      groupId: \${platform.id}
      thresholds: [{ percent: 80, basis: forecast }]
      recipients: ["FinOps@Example.com"]
      webhookUrl: \${hook}
  weekly:
    type: cloudcost:index:ScheduledReport
    properties:
      name: Weekly platform
      report: summary
      groupId: \${platform.id}
      schedule: { frequency: weekly, dayOfWeek: monday, time: "08:00", timezone: UTC }
      recipients: ["finops@example.com"]
variables:
  summary:
    fn::invoke:
      function: cloudcost:index:getCostSummary
      arguments: { from: "2026-10-01", to: "2026-10-31" }
outputs:
  alertId: \${budget.id}
  groupId: \${platform.id}
  total: \${summary.total}
  spend: \${budget.currentSpend}
`;

const HOOK = "https://hooks.example.com/never-in-state";

async function mustBeQuiet(stack: PulumiStack): Promise<void> {
  const preview = await stack.run(["preview", "--expect-no-changes", "--diff"]);
  expect([preview.code, preview.stdout + preview.stderr]).toEqual([0, expect.stringContaining("unchanged")]);
}

/** Appends the generated YAML (`resources:` …) to the project's program, as a user pastes it. */
function adopt(dir: string, generated: string): void {
  appendFileSync(join(dir, "Pulumi.yaml"), `\n${generated}`);
}

test("a YAML program deploys through the plugin; preview and refresh then change nothing; credentials and the webhook stay encrypted", async () => {
  const stack = await fx.stack(yamlProject("native-deploy", DEPLOYED), "dev", [{ key: "hook", value: HOOK, secret: true }]);
  const up = await stack.up();
  expect([up.code, up.stderr]).toEqual([0, ""]);
  const outputs = await stack.outputs();
  const alert = await fx.api.getAlert(outputs.alertId as string);
  expect(alert).toMatchObject({ name: "Platform budget", amount: 1200.5, groupId: outputs.groupId, recipients: ["finops@example.com"] });
  expect(outputs.spend).toBe(alert.currentSpend);
  expect(outputs.total).toBe((await fx.api.getCostSummary({ from: "2026-10-01", to: "2026-10-31" })).total);

  await mustBeQuiet(stack);
  const refresh = await stack.refresh(["--expect-no-changes"]);
  expect(refresh.code).toBe(0);

  // Every output Read gives is in the package schema, and every schema output is there (webhookUrl is set here).
  const schema = JSON.parse(readFileSync(join(REPO, "native", "schema.json"), "utf8")) as {
    resources: Record<string, { properties: Record<string, unknown> }>;
  };
  for (const r of (await stack.exportState()).deployment.resources ?? []) {
    const declared = schema.resources[r.type]?.properties;
    if (declared) expect([r.type, Object.keys(r.outputs ?? {}).sort()]).toEqual([r.type, Object.keys(declared).sort()]);
  }

  const state = JSON.stringify(await stack.exportState());
  expect(state).not.toContain(fx.token);
  expect(state).not.toContain(HOOK);
  expect(JSON.stringify(await stack.exportState({ showSecrets: true }))).toContain(HOOK);
});

test("the plugin's source folder runs as a plugin too (PulumiPlugin.yaml, through the Node language host)", async () => {
  const body = [
    "resources:",
    "  team:",
    "    type: cloudcost:index:CloudGroup",
    "    properties:",
    "      name: From the source folder",
    "outputs:",
    "  groupId: ${team.id}",
  ];
  const stack = await fx.stack(yamlProject("native-source-folder", body.join("\n"), join(REPO, "native")), "dev");
  const up = await stack.up();
  expect([up.code, up.stderr]).toEqual([0, ""]);
  const { groupId } = (await stack.outputs()) as { groupId: string };
  expect((await fx.api.getGroup(groupId)).name).toBe("From the source folder");
});

test("a wrong apiUrl is refused by CheckConfig, naming the setting, before anything is created", async () => {
  const before = await organizationIds(fx.api);
  const stack = await fx.stack(yamlProject("native-bad-config", DEPLOYED), "dev", [
    { key: "hook", value: HOOK, secret: true },
    { key: "cloudcost:apiUrl", value: "ftp://127.0.0.1/api/v1" },
  ]);
  const up = await stack.up();
  expect(up.code).not.toBe(0);
  expect(up.stdout + up.stderr).toMatch(/cloudcost:apiUrl/);
  expect(await organizationIds(fx.api)).toEqual(before);
});

test("`pulumi import` adopts an alert by its id alone and writes its code; the next preview shows no changes and nothing was written", async () => {
  const group = await fx.api.createGroup({ name: "Imported group" });
  const alert = await fx.api.createAlert({
    name: "Imported budget",
    amount: 777,
    currency: "USD",
    period: "quarterly",
    groupId: group.id,
    thresholds: [{ percent: 90, basis: "actual" }],
    recipients: ["ops@example.com"],
  });
  const stack = await fx.stack(yamlProject("native-import"), "dev");
  const out = join(stack.cwd, "generated.yaml");
  const imported = await stack.run(["import", "cloudcost:index:BudgetAlert", "imported-budget", alert.id, "--yes", "--out", out]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  const code = readFileSync(out, "utf8");
  expect(code).toContain("type: cloudcost:BudgetAlert"); // YAML spells cloudcost:index:BudgetAlert short
  expect(code).toMatch(/amount: 777/);
  expect(code).toContain(group.id);

  adopt(stack.cwd, code);
  await mustBeQuiet(stack);
  expect((await fx.api.getAlert(alert.id)).updatedAt).toBe(alert.updatedAt);
});

test("import-plan turns an organization into Pulumi's import file; `pulumi import --file` writes the program with references; preview shows no changes", async () => {
  const org = await fx.api.getOrganization();
  const group = await fx.api.createGroup({ name: "Plan group", description: "from the API" });
  const thresholds = [{ percent: 100, basis: "actual" as const }];
  await fx.api.createAlert({
    name: "Plan budget",
    amount: 1500,
    currency: "EUR",
    period: "monthly",
    groupId: group.id,
    thresholds,
    recipients: ["plan@example.com"],
  });
  await fx.api.createReport({
    name: "Plan report",
    report: "daily",
    groupId: group.id,
    schedule: { frequency: "monthly", dayOfMonth: 31, time: "06:30", timezone: "Europe/Berlin" },
    recipients: ["plan@example.com"],
  });

  const { stdout } = await promisify(execFile)(process.execPath, [CLI, "import-plan", "--org", org.id], {
    env: { ...process.env, CLOUDCOST_API_URL: fx.sandbox.baseUrl, CLOUDCOST_API_TOKEN: fx.token },
  });
  const plan = JSON.parse(stdout) as { resources: { type: string; name: string; id: string }[] };
  const ids = await organizationIds(fx.api);
  expect(plan.resources.map((r) => r.id).sort()).toEqual([...ids.groups, ...ids.alerts, ...ids.reports].sort());
  expect(plan.resources.find((r) => r.id === group.id)).toEqual({ type: "cloudcost:index:CloudGroup", name: "plan-group", id: group.id });

  const stack = await fx.stack(yamlProject("native-plan"), "dev");
  writeFileSync(join(stack.cwd, "import.json"), stdout);
  const out = join(stack.cwd, "generated.yaml");
  const imported = await stack.run(["import", "--file", "import.json", "--yes", "--out", out]);
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  const code = readFileSync(out, "utf8");
  // The alert's and the report's groupId refer to the group's resource, not to its id as text.
  expect(code).toContain('groupId: ${["plan-group"].id}');
  expect(code).not.toContain(`groupId: ${group.id}`);

  adopt(stack.cwd, code);
  await mustBeQuiet(stack);
  expect(await organizationIds(fx.api)).toEqual(ids);
});
