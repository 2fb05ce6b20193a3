import { execFileSync } from "node:child_process";
import { join } from "node:path";

/**
 * Go's build cache keys a compiled package by its module's version and the build flags, so a module built beside the
 * Pulumi CLI shares the CLI's compiled packages only if it pins the CLI's version of each module the two share
 * (issue 39: a cold CI builds them all). scripts/pulumi-cli.js builds the YAML language host in a module of its own
 * (pulumi-yaml needs an older pkg/v3 than the CLI's); every Go program the tests compile starts from the Go examples'
 * go.mod, with the CLI's flags (PROGRAM_BUILD_FLAGS); scripts/opentofu.js builds OpenTofu with the same flags, in a
 * wrapper module that pins, for every module the two CLIs share, the same version as the CLI's. A CLI upgrade that
 * forgets one of these still builds, only slower: this says which pins to move.
 */
const REPO = join(__dirname, "..", "..");
const MODULE_DIR = join(REPO, "scripts", "pulumi-cli");

/** Each module a go.mod requires, with its version, as Go reads the file (`go mod edit -json`). */
function requirements(goMod: string): Map<string, string> {
  const { Require } = JSON.parse(execFileSync("go", ["mod", "edit", "-json", goMod], { encoding: "utf8" })) as {
    Require: { Path: string; Version: string }[];
  };
  return new Map(Require.map((r) => [r.Path, r.Version]));
}

/** The pins of MODULES that differ from the CLI's, each with the CLI's version. */
function apartFromCli(modules: Map<string, string>, cli: Map<string, string>, except: string[] = []): string[] {
  return [...modules]
    .filter(([module, version]) => !except.includes(module) && cli.has(module) && cli.get(module) !== version)
    .map(([module, version]) => `${module} ${version}: the CLI has ${cli.get(module)}`);
}

const cli = requirements(join(MODULE_DIR, "go.mod"));

describe("the YAML host's module", () => {
  const yaml = requirements(join(MODULE_DIR, "language-yaml", "go.mod"));
  /** pulumi-yaml is built against its own pkg/v3 and sdk/v3; the CLI is those modules' newer release. */
  const ownRelease = ["github.com/pulumi/pulumi/pkg/v3", "github.com/pulumi/pulumi/sdk/v3"];

  it("reads both go.mod files", () => {
    expect(cli.get("github.com/pulumi/pulumi/pkg/v3")).toMatch(/^v3\./);
    expect(yaml.get("github.com/pulumi/pulumi-yaml")).toMatch(/^v1\./);
  });

  it("pins the CLI's version of every module the two share, but pulumi's own", () => {
    expect(apartFromCli(yaml, cli, ownRelease)).toEqual([]);
  });
});

describe.each(["quickstart-go", "platform-teams-go"])("examples/%s's module", (example) => {
  const program = requirements(join(REPO, "examples", example, "go.mod"));

  it("is on the Pulumi SDK release the CLI is built from", () => {
    expect(program.get("github.com/pulumi/pulumi/sdk/v3")).toBe(cli.get("github.com/pulumi/pulumi/sdk/v3"));
  });

  it("pins the CLI's version of every module the two share (`go get MODULE@VERSION`, then `go mod tidy`)", () => {
    expect(apartFromCli(program, cli)).toEqual([]);
  });
});

describe("OpenTofu's wrapper module", () => {
  const tofu = requirements(join(REPO, "scripts", "opentofu", "go.mod"));
  /** OpenTofu builds on its fork of HCL (the wrapper's `replace` of hcl/v2 at the version its release requires). */
  const forked = ["github.com/hashicorp/hcl/v2"];

  it("reads the wrapper's go.mod", () => {
    expect(tofu.get("github.com/opentofu/opentofu")).toMatch(/^v1\./);
  });

  it("pins the CLI's version of every module the two share, but the one OpenTofu replaces with its fork", () => {
    expect(apartFromCli(tofu, cli, forked)).toEqual([]);
  });
});
