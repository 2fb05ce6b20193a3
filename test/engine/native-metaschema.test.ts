/**
 * The copy of pulumi/pulumi's package metaschema that `npm test` validates native/schema.json with
 * (test/native/fixtures, Node only there) is the file of the pkg/v3 release scripts/pulumi-cli/go.mod pins, as
 * Go's module cache holds it once the CLI is built.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./support";

test("test/native/fixtures/pulumi-package-metaschema.json is pkg/codegen/schema/pulumi.json of the pinned pkg/v3", () => {
  const cli = join(REPO, "scripts", "pulumi-cli");
  const version = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(readFileSync(join(cli, "go.mod"), "utf8"))?.[1];
  expect(version).toMatch(/^v3\./);
  const { Dir } = JSON.parse(
    execFileSync("go", ["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@${version}`], { cwd: cli, encoding: "utf8" }),
  ) as { Dir: string };
  const copy = readFileSync(join(REPO, "test", "native", "fixtures", "pulumi-package-metaschema.json"), "utf8");
  expect(copy).toBe(readFileSync(join(Dir, "codegen", "schema", "pulumi.json"), "utf8"));
});
