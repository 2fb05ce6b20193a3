/**
 * Issue 20 item 1: the packages install the way users will install them. A real registry (Verdaccio on
 * 127.0.0.1, npm's registry for the `@cloudcost` scope; third-party packages come from the registry npm
 * uses) receives `npm publish` of every public workspace; then, in empty folders outside the repository,
 * each package is installed ALONE from that registry and used, and each example is copied out, installed
 * from it and type-checked.
 *
 * Nothing here links back into the workspace: every folder resolves `@cloudcost/*` from what was published.
 * The harness pieces it uses (Verdaccio, the gRPC side of the engine stand-in, `declareResources`) are
 * the engine and the registry, not the packages under test; the processes under test — the sandbox CLI,
 * the client, the dynamic-provider host, the policy-pack process — all run from the installed folders.
 *
 * It takes about two minutes on two cores, so `npm test` skips it: CI runs it as its own cell
 * (`node26-registry`, .ci/run). Locally: `npm run build && CLOUDCOST_REGISTRY=1 npx jest test/registry`.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { BudgetAlert } from "@cloudcost/pulumi";
import {
  RESOURCE_KINDS,
  START_TIMEOUT_MS,
  declareResources,
  registeredProviderTexts,
  secret,
  startPolicyPack,
  startProviderHost,
  urn,
  type ProviderHost,
  type RunningPolicyPack,
} from "@cloudcost/testkit";
import { ourCommands, printedNpxCommands } from "../docs/npx-commands";
import { type LocalRegistry, startRegistry } from "./verdaccio";

const enabled = process.env.CLOUDCOST_REGISTRY === "1";
const REPO = resolve(__dirname, "..", "..");
const PUBLISHED = ["api", "provider", "policies", "sandbox"];
/**
 * Examples that are a stand-alone program on our published packages, with their own package.json (custom-policy-pack
 * is a pack source only type-checked in the repository; cdktf-typescript uses none of our npm packages — it is the
 * Terraform provider's example, installed from its own lockfile in CI's terraform lane).
 */
const EXAMPLES = readdirSync(join(REPO, "examples")).filter((name) => {
  const manifest = join(REPO, "examples", name, "package.json");
  if (!existsSync(manifest)) return false;
  const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, Record<string, string>>;
  return Object.keys({ ...dependencies, ...devDependencies }).some((dep) => dep.startsWith("@cloudcost/"));
});
const INSTALL_TIMEOUT_MS = 300_000;
/** The sandbox's command as the READMEs print it (test/docs/npx-commands.test.ts). */
const SANDBOX_NPX = ["--package", "@cloudcost/sandbox", "cloudcost-sandbox"];
/** Installs at a time: two cores, and npm itself is busy while it unpacks. */
const PARALLEL_INSTALLS = 3;
/** Each package installed alone in an empty folder: its name here and what `npm install` is given. */
const PACKAGE_INSTALLS: [name: string, specs: string[]][] = [
  ["sandbox", ["@cloudcost/sandbox"]],
  ["api", ["@cloudcost/api"]],
  ["provider", ["@cloudcost/pulumi", "@pulumi/pulumi"]],
  ["policies", ["@cloudcost/policies", "@pulumi/pulumi"]],
];

/**
 * A test's jest timeout: a guard against a hang, never a verdict on speed (every command has its own bound, sh's
 * timeout). A test first waits for the installs it uses (beforeAll queues them all, PARALLEL_INSTALLS at a time, each
 * bounded by INSTALL_TIMEOUT_MS), then runs `steps` commands in turn, each bounded by INSTALL_TIMEOUT_MS too. (One bound of
 * INSTALL_TIMEOUT_MS for a whole test failed beside four busy loops: six npx commands in turn took longer; issue 39.)
 */
function guard(steps: number): number {
  const rounds = Math.ceil((PACKAGE_INSTALLS.length + EXAMPLES.length) / PARALLEL_INSTALLS);
  return (rounds + steps) * INSTALL_TIMEOUT_MS;
}

let root: string;
let registry: LocalRegistry | undefined;
let env: NodeJS.ProcessEnv;
const installs = new Map<string, Promise<string>>();

function sh(command: string, args: string[], cwd: string, timeout = INSTALL_TIMEOUT_MS): Promise<string> {
  return new Promise((resolveRun, reject) =>
    execFile(command, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}${stderr}`, { cause: err })) : resolveRun(stdout),
    ),
  );
}

/** The environment of a user's shell: none of the npm_* variables of the npm that started jest (a local prefix among them). */
function userEnv(userconfig: string): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  // Third-party packages come from the registry npm uses (read at run time, as Verdaccio's uplink is), straight:
  // proxied through Verdaccio, its JSON handling of every third-party package document was a third of this file's CPU.
  const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8", timeout: START_TIMEOUT_MS }).trim();
  return { ...clean, npm_config_userconfig: userconfig, npm_config_registry: upstream, npm_config_update_notifier: "false" };
}

/**
 * The registry's npm user config with `@cloudcost/*` taken from it alone (`@cloudcost:registry`, npm's scope
 * registry): Verdaccio never proxies that scope, so only what this run published can be installed under it.
 */
function scopedUserconfig(local: LocalRegistry): string {
  const file = join(root, "npmrc-scoped");
  const lines = readFileSync(local.userconfig, "utf8").replace(/^registry=/m, "@cloudcost:registry=");
  writeFileSync(file, lines);
  return file;
}

/**
 * An npm cache for this run that shares the user's tarballs but none of the user's cached registry answers.
 * npm finds a tarball in its cache by integrity (`content-v2`, content-addressed: a file there is what its
 * hash says, whoever wrote it), but a package's metadata by URL (`index-v5`). The index starts empty, so
 * every package's metadata is asked for in this run, @cloudcost/*'s of this run's registry — an earlier run's
 * answer for the same port could name an older @cloudcost/* tarball — and with --prefer-offline the installs
 * after the first reuse it.
 */
function runCache(dir: string): string {
  const user = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8", timeout: START_TIMEOUT_MS }).trim();
  mkdirSync(join(user, "_cacache", "content-v2"), { recursive: true });
  mkdirSync(join(dir, "_cacache"), { recursive: true });
  symlinkSync(join(user, "_cacache", "content-v2"), join(dir, "_cacache", "content-v2"));
  return dir;
}

/** A limiter: at most `n` installs run at once, in the order they were asked for. */
function limit(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((go) => queue.push(go));
    running++;
    try {
      return await task();
    } finally {
      running--;
      queue.shift()?.();
    }
  };
}

function emptyFolder(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `try-${name}`, private: true, version: "1.0.0" }, null, 2));
  return dir;
}

/** Resolves with the first group of the first stdout line matching `pattern`; fails when the process exits first or after `timeoutMs`. */
function firstMatch(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  let output = "";
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolveLine, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      output += `${line}\n`;
      const match = pattern.exec(line)?.[1];
      if (match === undefined) return;
      clearTimeout(timer);
      resolveLine(match);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before printing a line matching ${pattern}:\n${output}`));
    });
  });
}

/** SIGTERM to the child's whole process group (it was spawned `detached`), then wait for the child to exit. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  process.kill(-child.pid, "SIGTERM");
  await exited;
}

function installed(name: string): Promise<string> {
  const folder = installs.get(name);
  if (!folder) throw new Error(`no install named ${name}`);
  return folder;
}

beforeAll(async () => {
  if (!enabled) return;
  for (const ws of PUBLISHED) {
    if (!existsSync(join(REPO, ws, "dist", "index.js")) && ws !== "policies")
      throw new Error(`${ws}/dist is missing: run \`npm run build\` first`);
  }
  root = mkdtempSync(join(tmpdir(), "cloudcost-registry-"));
  registry = await startRegistry(join(root, "registry"));
  env = { ...userEnv(scopedUserconfig(registry)), npm_config_cache: runCache(join(root, "npm-cache")) };
  // One npm process publishes the four in turn (policies' prepack bundles the pack first).
  await sh("npm", ["publish", ...PUBLISHED.flatMap((ws) => ["-w", ws]), "--access", "public", "--no-provenance"], REPO);

  const queue = limit(PARALLEL_INSTALLS);
  const install = (name: string, dir: () => string, specs: string[]) =>
    installs.set(
      name,
      queue(async () => {
        const folder = dir();
        // --prefer-offline: what one install of this run asked the registry is not asked again (see runCache).
        await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...specs], folder);
        return folder;
      }),
    );
  for (const [name, specs] of PACKAGE_INSTALLS) install(name, () => emptyFolder(name), specs);
  for (const example of EXAMPLES) {
    install(
      `example-${example}`,
      () => {
        const dir = join(root, `example-${example}`);
        cpSync(join(REPO, "examples", example), dir, { recursive: true, filter: (src) => !src.includes("node_modules") });
        return dir;
      },
      [],
    );
  }
  // Failures surface in the test that awaits the folder; none may go unhandled meanwhile.
  for (const p of installs.values()) p.catch(() => undefined);
  // The hang guard of the publish: two minutes on a quiet machine were not enough at a load average of 28.
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  await Promise.allSettled(installs.values());
  await registry?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

(enabled ? describe : describe.skip)("installed alone from a registry (CLOUDCOST_REGISTRY=1)", () => {
  let sandbox: ChildProcess | undefined;
  let apiUrl: string;
  let token: string;

  beforeAll(async () => {
    const dir = await installed("sandbox");
    token = (
      JSON.parse(await sh("npx", [...SANDBOX_NPX, "token", "create", "--org", "demo", "--json", "--data", "data"], dir)) as {
        token: string;
      }
    ).token;
    // npx does not pass SIGTERM on to the command it runs: the sandbox gets its own process group, stopped as a whole.
    const child = spawn("npx", [...SANDBOX_NPX, "serve", "--port", "0", "--data", "data"], {
      cwd: dir,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    sandbox = child;
    apiUrl = await firstMatch(child, /^cloudcost sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/, START_TIMEOUT_MS);
  }, guard(2));

  afterAll(async () => {
    if (sandbox) await stopGroup(sandbox);
  });

  it("@cloudcost/sandbox: `npx --package @cloudcost/sandbox cloudcost-sandbox serve` answers the API and its OpenAPI document", async () => {
    const doc = (await (await fetch(`${apiUrl}/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\.1/);
    const org = await fetch(`${apiUrl}/organization`, { headers: { authorization: `Bearer ${token}` } });
    expect(org.status).toBe(200);
    // better-sqlite3 loads a binary it ships (Node-API, prebuilds/): nothing was compiled on install.
    expect(existsSync(join(await installed("sandbox"), "node_modules", "better-sqlite3", "build"))).toBe(false);
  });

  it(
    "@cloudcost/api: the client reads the sandbox",
    async () => {
      const dir = await installed("api");
      const program = `
      const { CloudCostClient } = require("@cloudcost/api");
      new CloudCostClient({ baseUrl: process.argv[1], auth: { apiToken: process.argv[2] } }).getOrganization()
        .then((o) => console.log(o.name), (e) => { console.error(e.message); process.exit(1); });`;
      expect((await sh(process.execPath, ["-e", program, apiUrl, token], dir)).trim()).toBe("demo");
    },
    guard(1),
  );

  describe("@cloudcost/pulumi", () => {
    let host: ProviderHost | undefined;
    afterAll(async () => {
      await host?.stop();
    });

    it(
      "registers each resource under Pulumi mocks with a small __provider text that requires the installed package",
      async () => {
        const dir = await installed("provider");
        const texts = await registeredProviderTexts(dir);
        expect(Object.keys(texts).sort()).toEqual([...RESOURCE_KINDS].sort());
        for (const text of Object.values(texts)) {
          expect(text).toMatch(/require\("@cloudcost\/pulumi\/dist\/providers\//);
          expect(text).not.toContain(REPO);
        }
      },
      guard(1),
    );

    it(
      "creates a Cloud Group in the sandbox through the installed dynamic-provider host",
      async () => {
        const dir = await installed("provider");
        const texts = await registeredProviderTexts(dir);
        host = await startProviderHost({ cwd: dir, hostFrom: dir, env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
        await host.configure({ "cloudcost:apiUrl": apiUrl, "cloudcost:apiToken": secret(token) });
        const name = urn("CloudGroup", "installed");
        const checked = await host.check(name, {}, { name: "Installed from the registry", __provider: texts.CloudGroup });
        expect(checked.failures).toEqual([]);
        const { id } = await host.create(name, checked.inputs);
        const group = await fetch(`${apiUrl}/groups/${id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(((await group.json()) as { name: string }).name).toBe("Installed from the registry");
      },
      guard(2),
    );
  });

  describe("@cloudcost/policies", () => {
    let pack: RunningPolicyPack | undefined;
    afterAll(async () => {
      await pack?.stop();
    });

    it(
      "runs in the real policy-pack process of the @pulumi/pulumi installed beside it and rejects a bad budget",
      async () => {
        const dir = await installed("policies");
        pack = await startPolicyPack({
          dir: join(dir, "node_modules", "@cloudcost", "policies"),
          env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" },
        });
        expect((await pack.info()).policies.map((p) => p.name)).toContain("budget-alert-currency");
        await pack.configure({});
        const [alert] = await declareResources(() => [
          new BudgetAlert("bad", { name: "Bad", amount: 100, currency: "EUR", recipients: ["finops@example.com"] }),
        ]);
        const result = await pack.analyze(alert!);
        expect(result.diagnostics.map((d) => d.policyName)).toContain("budget-alert-currency");
      },
      guard(2),
    );

    it(
      "links the cloudcost-policies command: `npx cloudcost-policies check-plan plan.json` judges a Terraform plan",
      async () => {
        const dir = await installed("policies");
        const plan = join(REPO, "test", "policies", "fixtures", "policy-violations.plan.json");
        // Through the link npm made in node_modules/.bin (what npx runs); exit 1 is the verdict, not a failure.
        const judged = await new Promise<{ code: number | string | null | undefined; stdout: string }>((resolveRun) =>
          execFile(
            join(dir, "node_modules", ".bin", "cloudcost-policies"),
            ["check-plan", plan],
            { cwd: dir, env, timeout: START_TIMEOUT_MS },
            (err, stdout) => resolveRun({ code: err ? err.code : 0, stdout }),
          ),
        );
        expect(judged.code).toBe(1);
        expect(judged.stdout).toContain("cloudcost_budget_alert.huge_budget: amount:");
      },
      guard(1),
    );
  });

  it(
    "every npx command of ours that the docs print runs as printed in a project that installed that package, and in an empty folder fetches only our scoped package",
    async () => {
      const ours = ourCommands(REPO);
      const printed = printedNpxCommands(REPO).filter((c) => ours.has(c.bin));
      const distinct = new Map(printed.map((c) => [`${c.packages.join(" ")} ${c.bin}`, c]));
      expect([...distinct.keys()].sort()).toEqual([
        "@cloudcost/policies cloudcost-policies",
        "@cloudcost/pulumi cloudcost-pulumi",
        "@cloudcost/sandbox cloudcost-sandbox",
      ]);
      const installedIn: Record<string, string> = {
        "@cloudcost/policies": "policies",
        "@cloudcost/pulumi": "provider",
        "@cloudcost/sandbox": "sandbox",
      };
      for (const c of distinct.values()) {
        const pkg = c.packages[0]!;
        // As printed up to the command's own arguments (serve would not end): --help instead.
        const local = await sh("npx", ["--package", pkg, c.bin, "--help"], await installed(installedIn[pkg]!));
        expect(local).toMatch(/Usage: /);
        // Nothing installed: npx (stdin not a terminal, so without asking) installs the named package from the
        // registry (here Verdaccio) and runs it: only ever our scoped package.
        const empty = emptyFolder(`npx-${c.bin}`);
        const fetched = await sh("npx", ["--package", pkg, c.bin, "--help"], empty);
        expect(fetched).toMatch(/Usage: /);
      }
    },
    guard(2 * 3), // two npx commands for each of the three packages
  );

  it.each(EXAMPLES)(
    "examples/%s, copied out of the repository, installs from the registry and type-checks",
    async (example) => {
      const dir = await installed(`example-${example}`);
      // With the example's own tsconfig.json, the one a `pulumi new typescript` project has (CommonJS, node10
      // resolution, strict), naming every TypeScript file of the example; then the repository's stricter
      // node16 options, so both resolutions of the published packages' types are used as users use them.
      const tsc = join(dir, "node_modules", "typescript", "bin", "tsc");
      await sh(process.execPath, [tsc, "--noEmit", "-p", "."], dir);
      await sh(
        process.execPath,
        [
          tsc,
          ...["--noEmit", "--strict", "--esModuleInterop", "--skipLibCheck", "--module", "node16", "--target", "es2022", "--types", "node"],
          ...readdirSync(dir).filter((f) => f.endsWith(".ts")),
        ],
        dir,
      );
    },
    guard(2),
  );
});
