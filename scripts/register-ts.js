"use strict";
/**
 * Lets plain `node` load the demo's TypeScript (and the test harness it reuses) without a build step:
 * `.ts` files are transpiled on load by @swc/core, the same compiler and settings the test suite uses
 * through @swc/jest. No type checking here; `npm run typecheck` covers these files.
 */
const { readFileSync } = require("node:fs");
const { transformSync } = require("@swc/core");

require.extensions[".ts"] = function loadTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, "utf8"), {
    filename,
    jsc: { parser: { syntax: "typescript" }, target: "es2022" },
    module: { type: "commonjs" },
    sourceMaps: "inline",
  });
  module._compile(code, filename);
};
