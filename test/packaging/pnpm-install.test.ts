import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { closeAllPools } from "@cloudcost/api";
import { START_TIMEOUT_MS, startConfiguredHost, type ResourceKind, urn } from "@cloudcost/testkit";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

/**
 * The small `__provider` (issue 16 item 2) under pnpm's strict layout: the packed tarballs installed
 * with pnpm (from the npm registry, through npx), resources declared there, each serialized provider
 * at most 512 bytes, and each of them run by the REAL dynamic-provider host started in that project
 * (create, read, delete against a sandbox), so the `require` it holds resolves through pnpm's symlinks.
 */
const run = promisify(execFile);
const REPO = resolve(__dirname, "..", "..");
const PNPM = "pnpm@12";

let project: string;
let sandbox: RunningSandbox;
let registered: { type: string; provider: string }[];

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "cloudcost-pnpm-"));
  project = join(root, "project");
  mkdirSync(project);
  const { stdout } = await run("npm", ["pack", "-w", "api", "-w", "provider", "--pack-destination", root, "--json"], {
    cwd: REPO,
    timeout: START_TIMEOUT_MS,
  });
  const local = Object.fromEntries(
    (JSON.parse(stdout) as { name: string; filename: string }[]).map((p) => [p.name, `file:${join(root, p.filename)}`]),
  );
  const pulumiVersion = (
    JSON.parse(readFileSync(join(REPO, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }
  ).version;
  const manifest = { name: "cloudcost-pnpm-check", private: true, dependencies: { ...local, "@pulumi/pulumi": pulumiVersion } };
  writeFileSync(join(project, "package.json"), JSON.stringify(manifest, null, 2));
  // The packages depend on each other by version: pnpm (≥ 10 reads overrides from its workspace file) must
  // never look those names up in the registry.
  const overrides = Object.entries(local).map(([name, spec]) => `  "${name}": "${spec}"`);
  writeFileSync(join(project, "pnpm-workspace.yaml"), `overrides:\n${overrides.join("\n")}\n`);
  const registry = (await run("npm", ["config", "get", "registry"])).stdout.trim();
  await run("npx", ["--yes", PNPM, "install", "--prefer-offline", "--ignore-scripts", "--registry", registry], {
    cwd: project,
    timeout: START_TIMEOUT_MS,
  });
  copyFileSync(join(__dirname, "fixture", "declare-resources.js"), join(project, "declare-resources.js"));
  registered = JSON.parse(
    (await run(process.execPath, ["declare-resources.js"], { cwd: project, timeout: START_TIMEOUT_MS })).stdout,
  ) as typeof registered;
  sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
});
afterAll(async () => {
  await sandbox?.dispose();
  await closeAllPools();
  if (project) rmSync(resolve(project, ".."), { recursive: true, force: true });
});

test("each serialized provider is at most 512 bytes and only requires the package", () => {
  expect(registered).toHaveLength(3);
  for (const r of registered) {
    expect(Buffer.byteLength(r.provider)).toBeLessThanOrEqual(512);
    expect(r.provider.match(/require\("([^"]+)"\)/g)).toEqual([
      expect.stringMatching(/^require\("@cloudcost\/pulumi\/dist\/providers\/[a-z-]+\.js"\)$/),
    ]);
    expect(r.provider).not.toContain(project);
  }
});

test("the real host started in the pnpm project runs them: create, read, delete", async () => {
  const host = await startConfiguredHost(sandbox.baseUrl, await sandbox.token("read,write"), { cwd: project });
  try {
    const inputs: Record<string, Record<string, unknown>> = {
      CloudGroup: { name: "pnpm group" },
      BudgetAlert: { name: "pnpm alert", amount: 10 },
      ScheduledReport: {
        name: "pnpm report",
        report: "summary",
        schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
        recipients: ["a@example.com"],
      },
    };
    for (const r of registered) {
      const kind = r.type.split(":").pop() as ResourceKind;
      const u = urn(kind, `pnpm-${kind}`);
      const checked = await host.check(u, {}, { ...inputs[kind], __provider: r.provider });
      expect(checked.failures).toEqual([]);
      const created = await host.create(u, checked.inputs);
      expect((await host.read(u, created.id, created.properties, checked.inputs)).id).toBe(created.id);
      await host.delete(u, created.id, created.properties);
      expect((await host.read(u, created.id, created.properties, checked.inputs)).id).toBe("");
    }
  } finally {
    await host.stop();
  }
});
