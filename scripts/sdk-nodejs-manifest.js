"use strict";
/**
 * The one change `npm run sdks` makes to what `pulumi package gen-sdk --language nodejs` writes: entry points in
 * sdk/nodejs/package.json. gen-sdk's manifest has no `main` (Pulumi's own release copies it into the compiled
 * folder), so the package root cannot be required after its `tsc`. Ours is installed from the folder itself
 * (README, "The SDKs"): `main` and `types` name tsc's output (tsconfig.json `outDir`: bin), `files` ships that
 * output (without it npm would pack by the folder's .gitignore, which gen-sdk writes with bin/ in it), and `build`
 * copies package.json into bin/ after tsc, where the generated utilities.ts reads its version
 * (`require('./package.json')`, as gen-sdk's own --local postinstall does).
 * test/engine/sdks-fresh.test.ts applies the same function to a fresh gen-sdk, so a regeneration keeps it.
 */
const { readFileSync, writeFileSync } = require("node:fs");

const ENTRY_POINTS = { main: "bin/index.js", types: "bin/index.d.ts", files: ["bin/"] };
const BUILD = "tsc && cp package.json bin/package.json";

/** gen-sdk's package.json text with the entry points after `license`, in gen-sdk's formatting (4 spaces, final newline). */
function withEntryPoints(text) {
  const manifest = JSON.parse(text);
  const out = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key in ENTRY_POINTS) continue;
    out[key] = key === "scripts" ? { ...value, build: BUILD } : value;
    if (key === "license") Object.assign(out, ENTRY_POINTS);
  }
  if (!("main" in out)) Object.assign(out, ENTRY_POINTS);
  return `${JSON.stringify(out, null, 4)}\n`;
}

/** Rewrites the package.json at FILE in place. */
function addEntryPoints(file) {
  writeFileSync(file, withEntryPoints(readFileSync(file, "utf8")));
}

module.exports = { withEntryPoints, addEntryPoints };
