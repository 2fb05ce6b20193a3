/**
 * The SDKs generated into sdk/ (`npm run sdks`), installed as the README's "The SDKs" says.
 *
 * From a clone (development, or a version not released yet): docs/guide/native-provider.md's three `sdk-from-checkout` blocks, run exactly as
 * printed (CLOUDCOST set to this repository) in an empty folder each, and the SDK used there.
 *
 * Published to each language's registry and installed from it alone: test/release, for the SDKs a release publishes
 * (`npm run release`: Verdaccio, pypiserver, a GOPROXY tree).
 *
 * Runs in the registry cell (CLOUDCOST_REGISTRY=1, `npm run test:registry`); needs python3 and go on the PATH.
 */
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { goBuild, sh, userEnv, virtualenv } from "./shell";

const enabled = process.env.CLOUDCOST_REGISTRY === "1";
const REPO = resolve(__dirname, "..", "..");
const SDK = join(REPO, "sdk");
const VERSION = (JSON.parse(readFileSync(join(SDK, "nodejs", "package.json"), "utf8")) as { version: string }).version;
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
  test("TypeScript: npm run build in sdk/nodejs, npm install --install-links; the package root requires and type-checks", async () => {
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
      ["--noEmit", "--strict", "--module", "nodenext", "--typeRoots", join(REPO, "node_modules", "@types"), "--types", "node", "index.ts"],
      user,
    );
  });

  test("Python: pip install of sdk/python into the program's virtualenv", async () => {
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
  });

  test("Go: go mod edit -require -replace to sdk/go, go get, go mod tidy; the program builds", async () => {
    const user = join(root, "clone-go-user");
    goProgram(user);
    await runBlock("go", user, userEnv({ GOWORK: "off", GOFLAGS: "-buildvcs=false" }));
    await goBuild(join(root, "clone-go-program"), user, userEnv({ GOWORK: "off", GOFLAGS: "-buildvcs=false" }));
    expect(readFileSync(join(user, "go.mod"), "utf8")).toContain(`github.com/cloudcost/cloudcost-pulumi/sdk/go => ${REPO}/sdk/go`);
  });
});
