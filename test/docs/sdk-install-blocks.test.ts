/**
 * Issue 34 item 5: the commands that install the generated SDKs from a clone are printed twice — "The SDKs" of
 * docs/guide/native-provider.md (the root README's section until issue 41) and native/README.md — and must be the same text (test/registry/sdks.test.ts runs the README's). And the
 * TypeScript SDK's manifest names the compiled output those commands install, so its root can be required.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO = resolve(__dirname, "..", "..");
const LANGUAGES = ["nodejs", "python", "go"];

/** Each `<!-- sdk-from-checkout: LANGUAGE -->` block of a Markdown file, by language. */
function blocks(file: string): Record<string, string> {
  const text = readFileSync(join(REPO, file), "utf8");
  return Object.fromEntries([...text.matchAll(/<!-- sdk-from-checkout: (\w+) -->\n\n```sh\n([\s\S]*?)```\n/g)].map((m) => [m[1]!, m[2]!]));
}

test("docs/guide/native-provider.md and native/README.md print the same from-a-clone commands for TypeScript, Python and Go", () => {
  const readme = blocks("docs/guide/native-provider.md");
  expect(Object.keys(readme).sort()).toEqual([...LANGUAGES].sort());
  expect(blocks("native/README.md")).toEqual(readme);
  expect(readme.python).toContain('pip install "$CLOUDCOST/sdk/python"');
  expect(readme.go).toContain('-replace=github.com/cloudcost/cloudcost-pulumi/sdk/go="$CLOUDCOST/sdk/go"');
  expect(readme.nodejs).toContain('npm install --install-links "$CLOUDCOST/sdk/nodejs"');
});

test("sdk/nodejs/package.json points main and types into tsc's output folder, which its build fills and its files ship", () => {
  const manifest = JSON.parse(readFileSync(join(REPO, "sdk", "nodejs", "package.json"), "utf8")) as {
    main?: string;
    types?: string;
    files?: string[];
    scripts?: Record<string, string>;
  };
  const tsconfig = readFileSync(join(REPO, "sdk", "nodejs", "tsconfig.json"), "utf8");
  const outDir = /"outDir":\s*"([^"]+)"/.exec(tsconfig)?.[1];
  expect(outDir).toBe("bin");
  expect([manifest.main, manifest.types, manifest.files]).toEqual([`${outDir}/index.js`, `${outDir}/index.d.ts`, [`${outDir}/`]]);
  // The generated utilities.ts reads its version from ./package.json beside the compiled code.
  expect(manifest.scripts?.build).toBe(`tsc && cp package.json ${outDir}/package.json`);
});
