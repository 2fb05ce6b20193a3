import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

/**
 * Proves the published packages work from `node_modules`: `npm pack`s the api, provider and policy
 * pack workspaces, installs the tarballs into a fresh project (dependencies from the npm registry,
 * offline cache preferred) and uses them there the way a user would.
 */

const run = promisify(execFile);
const REPO = resolve(__dirname, "..", "..");
const FIXTURE = join(__dirname, "fixture");
const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");
/** Must not appear anywhere in state: a real engine stores `__provider` for every resource. */
const SECRET_MARKER = "ccpat_packaging-secret-marker-0123456789";
const MAX_PROVIDER_BYTES = 512;

interface Registered {
  type: string;
  provider: string;
}

let project: string;
let packs: Map<string, string>;

async function packWorkspaces(dest: string): Promise<Map<string, string>> {
  const { stdout } = await run("npm", ["pack", "-w", "api", "-w", "provider", "-w", "policies", "--pack-destination", dest, "--json"], {
    cwd: REPO,
    timeout: START_TIMEOUT_MS,
  });
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  return new Map(packed.map((p) => [p.name, join(dest, p.filename)]));
}

function writeProject(dir: string, tarballs: Map<string, string>): void {
  const local = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
  const pulumiVersion = (
    JSON.parse(readFileSync(join(REPO, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }
  ).version;
  const manifest = {
    name: "cloudcost-pack-check",
    private: true,
    dependencies: { ...local, "@pulumi/pulumi": pulumiVersion },
    // The packages depend on each other by version; never let npm look those names up in the registry.
    overrides: local,
  };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
}

beforeAll(async () => {
  for (const pkg of ["api", "provider", "policies"]) {
    if (!existsSync(join(REPO, pkg, "dist", "index.js"))) throw new Error(`${pkg}/dist is missing: run \`npm run build\` first`);
  }
  const root = mkdtempSync(join(tmpdir(), "cloudcost-pack-"));
  project = join(root, "project");
  packs = await packWorkspaces(root);
  await run("mkdir", ["-p", project]);
  writeProject(project, packs);
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: project,
    timeout: START_TIMEOUT_MS,
    env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? "/usr" },
  });
});

afterAll(() => {
  if (project) rmSync(resolve(project, ".."), { recursive: true, force: true });
});

describe("the packed packages, installed from tarballs", () => {
  it("resolve through their exports maps to built JavaScript with type declarations", async () => {
    const specs = [
      "@cloudcost/api",
      "@cloudcost/pulumi",
      "@cloudcost/pulumi/runtime",
      "@cloudcost/policies",
      "@cloudcost/pulumi/dist/cloud-group",
      "@cloudcost/policies/dist/policies",
    ];
    // Resolved by plain Node inside the project, as a user's program would.
    const script = `console.log(JSON.stringify(${JSON.stringify(specs)}.map((s) => { try { return require.resolve(s); } catch (e) { return e.code; } })))`;
    const { stdout } = await run(process.execPath, ["-e", script], { cwd: project, timeout: START_TIMEOUT_MS });
    const [api, provider, runtime, policies, ...deep] = JSON.parse(stdout) as string[];
    for (const file of [api, provider, runtime, policies]) {
      expect(file!.startsWith(join(project, "node_modules"))).toBe(true);
      expect(file!.endsWith(".js")).toBe(true);
      expect(existsSync(file!.replace(/\.js$/, ".d.ts"))).toBe(true);
    }
    // A deep import that is not in the exports map is refused, so internals can change freely.
    expect(deep).toEqual(["ERR_PACKAGE_PATH_NOT_EXPORTED", "ERR_PACKAGE_PATH_NOT_EXPORTED"]);
  });

  it("ship the policy pack's PulumiPolicy.yaml next to its entry point", () => {
    const packDir = join(project, "node_modules", "@cloudcost", "policies");
    expect(readFileSync(join(packDir, "PulumiPolicy.yaml"), "utf8")).toMatch(/runtime:\s*nodejs/);
    const main = (JSON.parse(readFileSync(join(packDir, "package.json"), "utf8")) as { main: string }).main;
    expect(existsSync(join(packDir, main))).toBe(true);
  });

  it("type-check a program against the published declarations (and reject wrong inputs)", async () => {
    copyFileSync(join(FIXTURE, "typed-program.ts"), join(project, "typed-program.ts"));
    const compilerOptions = {
      noEmit: true,
      strict: true,
      skipLibCheck: true,
      target: "es2022",
      module: "node16",
      moduleResolution: "node16",
      types: [],
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["typed-program.ts"] }));
    const result = await run(process.execPath, [TSC, "-p", "."], { cwd: project, timeout: START_TIMEOUT_MS }).then(
      () => ({ code: 0, out: "" }),
      (err: { code?: number; stdout?: string }) => ({ code: err.code ?? 1, out: err.stdout ?? "" }),
    );
    expect(result).toEqual({ code: 0, out: "" });
  });

  // Pulumi's TypeScript templates compile with `module: commonjs` and no moduleResolution (node10), which
  // ignores package.json `exports`: the subpaths need `typesVersions` there. Each mode gets one compile.
  it.each([
    { module: "commonjs", moduleResolution: "node10" },
    { module: "node16", moduleResolution: "node16" },
    { module: "nodenext", moduleResolution: "nodenext" },
    { module: "esnext", moduleResolution: "bundler" },
  ])("resolve every subpath's types under module $module, moduleResolution $moduleResolution", async (modes) => {
    copyFileSync(join(FIXTURE, "subpath-imports.ts"), join(project, "subpath-imports.ts"));
    const compilerOptions = { noEmit: true, strict: true, skipLibCheck: true, target: "es2022", types: [], ...modes };
    const config = `tsconfig.${modes.moduleResolution}.json`;
    writeFileSync(join(project, config), JSON.stringify({ compilerOptions, files: ["subpath-imports.ts"] }));
    const result = await run(process.execPath, [TSC, "-p", config], { cwd: project, timeout: START_TIMEOUT_MS }).then(
      () => ({ code: 0, out: "" }),
      (err: { code?: number; stdout?: string }) => ({ code: err.code ?? 1, out: err.stdout ?? "" }),
    );
    expect(result).toEqual({ code: 0, out: "" });
  });

  it("declare resources whose serialized provider is small and holds no secret", async () => {
    copyFileSync(join(FIXTURE, "declare-resources.js"), join(project, "declare-resources.js"));
    const env = {
      ...process.env,
      CLOUDCOST_API_TOKEN: SECRET_MARKER,
      CLOUDCOST_CLIENT_SECRET: SECRET_MARKER,
      PULUMI_CONFIG: JSON.stringify({ "cloudcost:apiToken": SECRET_MARKER, "cloudcost:apiUrl": "http://127.0.0.1:9/api/v1" }),
    };
    const { stdout } = await run(process.execPath, ["declare-resources.js"], { cwd: project, env, timeout: START_TIMEOUT_MS });
    const registered = JSON.parse(stdout) as Registered[];

    expect(registered.map((r) => r.type).sort()).toEqual([
      "pulumi-nodejs:dynamic/cloudcost:BudgetAlert",
      "pulumi-nodejs:dynamic/cloudcost:CloudGroup",
      "pulumi-nodejs:dynamic/cloudcost:ScheduledReport",
    ]);
    const sizes = registered.map((r) => Buffer.byteLength(r.provider, "utf8"));
    console.log(
      `__provider size from node_modules (bytes): ${registered.map((r, i) => `${r.type.split(":").pop()}=${sizes[i]}`).join(", ")}`,
    );
    for (const r of registered) {
      expect(Buffer.byteLength(r.provider, "utf8")).toBeLessThanOrEqual(MAX_PROVIDER_BYTES);
      expect(r.provider).not.toContain(SECRET_MARKER);
      // Nothing of the development checkout is baked into state: the code is loaded from the package.
      expect(r.provider).not.toContain(REPO);
    }
  });
});
