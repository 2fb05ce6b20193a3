/**
 * The SDKs under sdk/ are what `pulumi package gen-sdk native/schema.json --language <lang>` writes with the pinned
 * CLI and our language hosts (scripts/pulumi-cli/): regenerated into a temporary folder and compared file by file,
 * so a schema change without `npm run sdks` fails here. In the engine cell because it needs the real CLI. The one
 * step `npm run sdks` adds (sdk/nodejs's entry points, scripts/sdk-nodejs-manifest.js) is applied here too.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { PulumiWorkspace } from "@cloudcost/testkit";
import { REPO } from "./support";

// Plain JavaScript shared with `npm run sdks`, required by path as the demo requires scripts/pulumi-cli.js.
const { addEntryPoints } = require(join(REPO, "scripts", "sdk-nodejs-manifest.js")) as { addEntryPoints(file: string): void };

const SCHEMA = join(REPO, "native", "schema.json");
const SDK = join(REPO, "sdk");

/** Every file under DIR, relative to it, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The files under DIR that git tracks (what is committed or staged), relative to it, sorted: a build's ignored output aside. */
function tracked(dir: string): string[] {
  return execFileSync("git", ["ls-files", "-z", "."], { cwd: dir, encoding: "utf8" }).split("\0").filter(Boolean).sort();
}

let workspace: PulumiWorkspace;
let out: string;
beforeAll(() => {
  workspace = new PulumiWorkspace();
  out = mkdtempSync(join(tmpdir(), "cloudcost-sdks-"));
});
afterAll(() => {
  workspace.dispose();
  rmSync(out, { recursive: true, force: true });
});

describe.each(["nodejs", "python", "go"])("sdk/%s", (language) => {
  it("is what `pulumi package gen-sdk` generates from native/schema.json now (regenerate: npm run sdks)", async () => {
    await workspace.must(["package", "gen-sdk", SCHEMA, "--language", language, "--out", out], REPO);
    const fresh = join(out, language);
    if (language === "nodejs") addEntryPoints(join(fresh, "package.json"));
    const committed = join(SDK, language);
    expect(tracked(committed)).toEqual(files(fresh));
    for (const file of files(fresh)) {
      expect([file, readFileSync(join(committed, file), "utf8")]).toEqual([file, readFileSync(join(fresh, file), "utf8")]);
    }
  });
});
