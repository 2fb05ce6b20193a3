import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * scripts/pulumi-cli.js builds the YAML language host in a module of its own (pulumi-yaml needs an older pkg/v3 than
 * the CLI's). Its go.mod pins the CLI's version of every other module the two share, so that Go's build cache compiles
 * those packages once for both builds (issue 39: a cold CI builds both). A CLI upgrade that forgets the YAML module
 * still builds, only slower: this says which pins to move.
 */
const MODULE_DIR = join(__dirname, "..", "..", "scripts", "pulumi-cli");

/** Each module a go.mod requires, with its version, as Go reads the file (`go mod edit -json`). */
function requirements(goMod: string): Map<string, string> {
  const { Require } = JSON.parse(execFileSync("go", ["mod", "edit", "-json", goMod], { encoding: "utf8" })) as {
    Require: { Path: string; Version: string }[];
  };
  return new Map(Require.map((r) => [r.Path, r.Version]));
}

/** pulumi-yaml is built against its own pkg/v3 and sdk/v3; the CLI is those modules' newer release. */
const OWN_RELEASE = ["github.com/pulumi/pulumi/pkg/v3", "github.com/pulumi/pulumi/sdk/v3"];

describe("the YAML host's module", () => {
  const cli = requirements(join(MODULE_DIR, "go.mod"));
  const yaml = requirements(join(MODULE_DIR, "language-yaml", "go.mod"));

  it("reads both go.mod files", () => {
    expect(cli.get("github.com/pulumi/pulumi/pkg/v3")).toMatch(/^v3\./);
    expect(yaml.get("github.com/pulumi/pulumi-yaml")).toMatch(/^v1\./);
  });

  it("pins the CLI's version of every module the two share, but pulumi's own", () => {
    const apart = [...yaml]
      .filter(([module, version]) => !OWN_RELEASE.includes(module) && cli.has(module) && cli.get(module) !== version)
      .map(([module, version]) => `${module} ${version}: the CLI has ${cli.get(module)}`);
    expect(apart).toEqual([]);
  });
});
