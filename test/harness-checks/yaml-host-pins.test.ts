import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * scripts/pulumi-cli.js builds the YAML language host in a module of its own (pulumi-yaml needs an older pkg/v3 than
 * the CLI's). Its go.mod pins the CLI's version of every other module the two share, so that Go's build cache compiles
 * those packages once for both builds (issue 39: a cold CI builds both). A CLI upgrade that forgets the YAML module
 * still builds, only slower: this says which pins to move.
 */
const MODULE_DIR = join(__dirname, "..", "..", "scripts", "pulumi-cli");

/** Each `require`d module of a go.mod with its version, whether on a `require` line or inside a block. */
function requirements(goMod: string): Map<string, string> {
  const found = new Map<string, string>();
  let inBlock = false;
  for (const line of goMod.split("\n").map((l) => l.replace(/\/\/.*/, "").trim())) {
    if (line === "require (") inBlock = true;
    else if (line === ")") inBlock = false;
    const entry = /^(?:require\s+)?(\S+)\s+(v\S+)$/.exec(line);
    if (entry && (inBlock || line.startsWith("require "))) found.set(entry[1]!, entry[2]!);
  }
  return found;
}

/** pulumi-yaml is built against its own pkg/v3 and sdk/v3; the CLI is those modules' newer release. */
const OWN_RELEASE = ["github.com/pulumi/pulumi/pkg/v3", "github.com/pulumi/pulumi/sdk/v3"];

describe("the YAML host's module", () => {
  const cli = requirements(readFileSync(join(MODULE_DIR, "go.mod"), "utf8"));
  const yaml = requirements(readFileSync(join(MODULE_DIR, "language-yaml", "go.mod"), "utf8"));

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
