// Bundles the policy pack into one file, `dist/pack.js` (package.json `main`), and the library of its
// policies into another, `dist/library.bundle.js` (package.json `exports`), with one declaration file.
//
// Why: `pulumi policy publish` uploads `npm pack` of this folder, and every machine that enforces the pack
// unpacks it and runs a plain `npm install` there. So the tarball may depend only on packages that really
// are on the registry: the workspace packages (@cloudcost/api, @cloudcost/pulumi) and their dependencies
// are bundled here; @pulumi/policy and @pulumi/pulumi stay real dependencies (the pack process and the
// policy SDK must share one @pulumi/pulumi). Run by `npm run build` and by `npm pack` (prepack).
import { build } from "esbuild";
import { renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";

const here = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Bundles `src/<entry>.ts` into `dist/<name>.js`, written aside and renamed into place: a pack process
 * starting meanwhile never loads half a file.
 */
async function bundle(entry, name, plugins = []) {
  const outfile = join(here, "dist", `${name}.js`);
  const partial = `${outfile}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(here, "src", `${entry}.ts`)],
    outfile: partial,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    tsconfig: join(here, "tsconfig.json"),
    // `@cloudcost/pulumi/runtime` is only `require`d inside a dynamic provider's methods, which a policy
    // pack never calls; bundling it would pull the whole provider runtime in for nothing.
    // web-tree-sitter and the HCL grammar load their WebAssembly beside their own files, and
    // junit-report-builder is a plain dependency: all three stay real dependencies (package.json).
    external: [
      "@pulumi/pulumi",
      "@pulumi/pulumi/*",
      "@pulumi/policy",
      "@cloudcost/pulumi/runtime",
      "web-tree-sitter",
      "@tree-sitter-grammars/tree-sitter-hcl/*",
      "junit-report-builder",
    ],
    // The licence notices of the bundled packages travel inside the one file that ships.
    legalComments: "eof",
    logLevel: "warning",
    plugins,
  });
  renameSync(partial, outfile);
}

// The library (package.json `exports`, what `require("@cloudcost/policies")` loads): the factories, starts
// nothing. Named apart from tsc's own dist/library.js, which `tsc -b` may rewrite at any time.
await bundle("library", "library.bundle");
// The pack (package.json `main`, what run-policy-pack loads): constructing the PolicyPack starts its server.
// It `require`s the library bundle beside it rather than carrying a second copy of every policy.
await bundle("index", "pack", [
  {
    name: "library-beside",
    setup: (b) => b.onResolve({ filter: /^\.\/library$/ }, () => ({ path: "./library.bundle.js", external: true })),
  },
]);
// The `cloudcost-policies` command (bin/cloudcost-policies.js loads it): judges a Terraform plan with the
// same policies, so it too `require`s the library bundle beside it.
await bundle("check-plan-cli", "check-plan", [
  {
    name: "library-beside",
    setup: (b) => b.onResolve({ filter: /^\.\/library$/ }, () => ({ path: "./library.bundle.js", external: true })),
  },
]);
// It exports nothing; the declaration says so for tools that look for one.
writeFileSync(join(here, "dist", "pack.d.ts"), "export {};\n");
// Its declarations in one file too, rolled up from tsc's (run `tsc -b` first): tsc's per-file ones import the
// workspace packages the tarball does not carry. @pulumi/policy stays an import (a real dependency).
const declarations = await rollup({
  input: join(here, "dist", "library.d.ts"),
  plugins: [dts()],
  external: (id) => id.startsWith("@pulumi/"),
});
const [{ code }] = (await declarations.generate({ format: "es" })).output;
await declarations.close();
if (/from ['"]@cloudcost\//.test(code))
  throw new Error("dist/library.bundle.d.ts would import a workspace package the tarball does not carry");
writeFileSync(join(here, "dist", "library.bundle.d.ts"), code);
