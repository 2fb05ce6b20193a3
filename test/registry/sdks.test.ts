/**
 * The SDKs generated into sdk/ (`npm run sdks`), installed as the README's "The SDKs" says, in two ways.
 *
 * From a clone (development, or a version not released yet): docs/guide/native-provider.md's three `sdk-from-checkout` blocks, run exactly as
 * printed (CLOUDCOST set to this repository) in an empty folder each, and the SDK used there.
 *
 * Published the way each language publishes, each to a registry of its own on 127.0.0.1, then installed ALONE in an
 * empty folder with the page's registry command and loaded, as a user of that language does:
 *
 *   npm    sdk/nodejs compiled by its package.json's build (tsc into bin/), `npm publish sdk/nodejs` to Verdaccio,
 *          `npm install @cloudcost/pulumi-native` (its @pulumi/pulumi proxied from the registry npm uses)
 *   PyPI   a wheel of sdk/python uploaded to pypiserver (in a virtual environment, from PyPI), `pip install
 *          pulumi_cloudcost` from it (pulumi and the rest through pypiserver's fallback to PyPI)
 *   Go     sdk/go as a module zip in a GOPROXY=file:// tree, `go get` + `go build` of a program importing it
 *          (github.com/pulumi/pulumi/sdk/v3 from the module proxy Go is configured with)
 *
 * Runs in the registry cell (CLOUDCOST_REGISTRY=1, `npm run test:registry`); needs python3 and go on the PATH.
 */
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startPypiServer } from "./pypiserver";
import { COMMAND_TIMEOUT_MS, sh, userEnv, virtualenv } from "./shell";
import { startRegistry } from "./verdaccio";

const enabled = process.env.CLOUDCOST_REGISTRY === "1";
const REPO = resolve(__dirname, "..", "..");
const SDK = join(REPO, "sdk");
const VERSION = (JSON.parse(readFileSync(join(SDK, "nodejs", "package.json"), "utf8")) as { version: string }).version;
/** A hang guard per test (a cold Go build of sdk/v3 under load took over jest's default 300 s): each runs up to three commands. */
const TEST_TIMEOUT_MS = 3 * COMMAND_TIMEOUT_MS;
/** The release's module proxy tree writer (scripts/release/go-modules.js), which the release suite serves too. */
const { writeModule } = require("../../scripts/release/go-modules.js") as {
  writeModule(options: { root: string; folder: string; version: string; proxy: string }): { module: string };
};

/** The sdk/v3 version scripts/pulumi-cli/go.mod pins. */
function pinnedSdk(): string {
  const pinned = /github\.com\/pulumi\/pulumi\/sdk\/v3 (v\S+)/.exec(
    readFileSync(join(REPO, "scripts", "pulumi-cli", "go.mod"), "utf8"),
  )?.[1];
  if (!pinned) throw new Error("scripts/pulumi-cli/go.mod pins no sdk/v3");
  return pinned;
}

let root: string;
beforeAll(() => void (root = mkdtempSync(join(tmpdir(), "cloudcost-sdk-registries-"))));
afterAll(() => root && rmSync(root, { recursive: true, force: true }));

/** Where the README's from-a-clone blocks say the clone is; the test runs them with this repository there. */
const CLONE_PLACEHOLDER = "CLOUDCOST=/path/to/cloudcost-pulumi";

/** The docs' `sh` block marked `<!-- sdk-from-checkout: LANGUAGE -->` (docs/guide/native-provider.md, "The SDKs"), with CLOUDCOST set to this repository. */
function readmeBlock(language: string): string {
  const readme = readFileSync(join(REPO, "docs", "guide", "native-provider.md"), "utf8");
  const block = new RegExp(`<!-- sdk-from-checkout: ${language} -->\\n\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n`).exec(readme)?.[1];
  if (!block) throw new Error(`docs/guide/native-provider.md has no sdk-from-checkout block for ${language}`);
  expect(block.split("\n")[0]).toBe(CLONE_PLACEHOLDER);
  return block.replace(CLONE_PLACEHOLDER, `CLOUDCOST=${JSON.stringify(REPO)}`);
}

/** Runs a README block in DIR as a shell does, stopping at the first failing command. */
const runBlock = (language: string, dir: string, env: NodeJS.ProcessEnv = userEnv({})) =>
  sh("bash", ["-e", "-o", "pipefail", "-c", readmeBlock(language)], dir, env);

/** A Go program creating one CloudGroup through the SDK, in DIR, with a go.mod of its own. */
function goProgram(dir: string): void {
  mkdirSync(dir);
  writeFileSync(join(dir, "go.mod"), "module example.com/try-cloudcost\n\ngo 1.25\n");
  writeFileSync(
    join(dir, "main.go"),
    [
      "package main",
      "",
      "import (",
      '\t"github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost"',
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      '\t\t_, err := cloudcost.NewCloudGroup(ctx, "g", &cloudcost.CloudGroupArgs{Name: pulumi.String("G")})',
      "\t\treturn err",
      "\t})",
      "}",
      "",
    ].join("\n"),
  );
}

(enabled ? describe : describe.skip)("the generated SDKs from a clone, by the README's commands (CLOUDCOST_REGISTRY=1)", () => {
  test(
    "TypeScript: npm run build in sdk/nodejs, npm install --install-links; the package root requires and type-checks",
    async () => {
      const user = join(root, "clone-npm-user");
      mkdirSync(user);
      writeFileSync(join(user, "package.json"), JSON.stringify({ name: "try-sdk", private: true, version: "1.0.0" }));
      await runBlock("nodejs", user, userEnv({ npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false" }));
      // A copy with the compiled output, not a link into the clone.
      expect(lstatSync(join(user, "node_modules", "@cloudcost", "pulumi-native")).isSymbolicLink()).toBe(false);
      const loaded = await sh(
        "node",
        [
          "-p",
          `const c = require("@cloudcost/pulumi-native"); [typeof c.BudgetAlert, typeof c.getCostSummaryOutput, require("@cloudcost/pulumi-native/package.json").version].join(" ")`,
        ],
        user,
      );
      expect(loaded.trim()).toBe(`function function ${VERSION}`);
      writeFileSync(
        join(user, "index.ts"),
        'import * as cloudcost from "@cloudcost/pulumi-native";\nexport const id = new cloudcost.CloudGroup("g", { name: "G" }).id;\n',
      );
      // The types come from the package's `types` (bin/index.d.ts); @types/node from the repository.
      await sh(
        join(REPO, "node_modules", ".bin", "tsc"),
        [
          "--noEmit",
          "--strict",
          "--module",
          "nodenext",
          "--typeRoots",
          join(REPO, "node_modules", "@types"),
          "--types",
          "node",
          "index.ts",
        ],
        user,
      );
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Python: pip install of sdk/python into the program's virtualenv",
    async () => {
      const user = join(root, "clone-pypi-user");
      mkdirSync(user);
      await virtualenv(join(user, "venv"), []);
      await runBlock("python", user);
      const loaded = await sh(
        join(user, "venv", "bin", "python"),
        ["-c", "import importlib.metadata as m, pulumi_cloudcost as c; print(c.BudgetAlert.__name__, m.version('pulumi_cloudcost'))"],
        user,
      );
      expect(loaded.trim()).toBe(`BudgetAlert ${VERSION}`);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Go: go mod edit -require -replace to sdk/go, go get, go mod tidy; the program builds",
    async () => {
      const user = join(root, "clone-go-user");
      goProgram(user);
      await runBlock("go", user, userEnv({ GOWORK: "off", GOFLAGS: "-buildvcs=false" }));
      await sh("go", ["build", "-o", join(root, "clone-go-program"), "."], user, userEnv({ GOWORK: "off", GOFLAGS: "-buildvcs=false" }));
      expect(readFileSync(join(user, "go.mod"), "utf8")).toContain(`github.com/cloudcost/cloudcost-pulumi/sdk/go => ${REPO}/sdk/go`);
    },
    TEST_TIMEOUT_MS,
  );
});

(enabled ? describe : describe.skip)("the generated SDKs, published and installed alone (CLOUDCOST_REGISTRY=1)", () => {
  test(
    "npm: @cloudcost/pulumi-native from Verdaccio",
    async () => {
      const registry = await startRegistry(join(root, "verdaccio"));
      try {
        const env = userEnv({
          npm_config_userconfig: registry.userconfig,
          npm_config_registry: registry.url,
          npm_config_cache: join(root, "npm-cache"),
          npm_config_update_notifier: "false",
        });
        // The package's own `build` (tsc into bin/, the manifest beside it), then the folder as its `files` ship it.
        await sh("npm", ["run", "build"], join(SDK, "nodejs"));
        await sh("npm", ["publish", join(SDK, "nodejs"), "--access", "public", "--no-provenance"], root, env);

        const user = join(root, "npm-user");
        mkdirSync(user);
        writeFileSync(join(user, "package.json"), JSON.stringify({ name: "try-sdk", private: true, version: "1.0.0" }));
        await sh("npm", ["install", "--no-audit", "--no-fund", "@cloudcost/pulumi-native"], user, env);
        const loaded = await sh(
          "node",
          [
            "-p",
            `const c = require("@cloudcost/pulumi-native"); [typeof c.BudgetAlert, typeof c.CloudGroup, typeof c.ScheduledReport, typeof c.getCostSummaryOutput, require("@cloudcost/pulumi-native/package.json").version].join(" ")`,
          ],
          user,
          env,
        );
        expect(loaded.trim()).toBe(`function function function function ${VERSION}`);
      } finally {
        await registry.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "PyPI: pulumi_cloudcost from pypiserver",
    async () => {
      // The wheel is built from a copy: pip builds in the source tree, and sdk/ must hold only what gen-sdk wrote.
      const source = join(root, "python-source");
      cpSync(join(SDK, "python"), source, { recursive: true });
      const wheels = join(root, "wheels");
      const index = await startPypiServer(root);
      try {
        await sh(join(root, "pypi-tools", "bin", "pip"), ["wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source], root);
        const [wheel] = readdirSync(wheels);
        expect(wheel).toBe(`pulumi_cloudcost-${VERSION}-py3-none-any.whl`);
        // The upload twine makes: the legacy upload API's multipart form.
        const form = new FormData();
        form.set(":action", "file_upload");
        form.set("name", "pulumi_cloudcost");
        form.set("version", VERSION);
        form.set("content", new Blob([readFileSync(join(wheels, wheel!))]), wheel!);
        const upload = await fetch(`${index.url}/`, { method: "POST", body: form });
        expect(upload.status).toBe(200);

        const user = await virtualenv(join(root, "pypi-user"), ["pulumi_cloudcost"], ["--index-url", `${index.url}/simple/`]);
        const loaded = await sh(
          join(user, "bin", "python"),
          [
            "-c",
            "import importlib.metadata as m, pulumi_cloudcost as c; print(c.BudgetAlert.__name__, c.get_cost_summary_output.__name__, m.version('pulumi_cloudcost'), m.version('pulumi').split('.')[0])",
          ],
          user,
        );
        expect(loaded.trim()).toBe(`BudgetAlert get_cost_summary_output ${VERSION} 3`);
      } finally {
        await index.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Go: github.com/cloudcost/cloudcost-pulumi/sdk/go from a GOPROXY=file:// tree",
    async () => {
      const module = "github.com/cloudcost/cloudcost-pulumi/sdk/go";
      const version = `v${VERSION}`;
      // The module proxy protocol's files (go.dev/ref/mod#goproxy-protocol): list, .info, .mod and the module zip.
      const proxy = join(root, "goproxy");
      expect(writeModule({ root: REPO, folder: "sdk/go", version: VERSION, proxy }).module).toBe(module);

      const user = join(root, "go-user");
      goProgram(user);
      const upstream = (await sh("go", ["env", "GOPROXY"], user)).trim();
      const env = userEnv({
        GOPROXY: `file://${proxy},${upstream}`,
        // Not in the public checksum database: it was never published there.
        GONOSUMDB: module,
        GOFLAGS: "-mod=mod -buildvcs=false",
        GOWORK: "off",
      });
      // With the sdk/v3 release the CLI is built from: the generated go.mod's floor (v3.269.0) needs a
      // pulumi-cloud-sdk version the module proxy here refuses (scripts/pulumi-cli/README.md).
      await sh("go", ["get", `${module}@${version}`, `github.com/pulumi/pulumi/sdk/v3@${pinnedSdk()}`], user, env);
      await sh("go", ["build", "-o", join(root, "go-program"), "."], user, env);
      expect(readFileSync(join(user, "go.mod"), "utf8")).toContain(`${module} ${version}`);
    },
    TEST_TIMEOUT_MS,
  );
});
