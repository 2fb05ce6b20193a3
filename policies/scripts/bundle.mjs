// Bundles the policy pack into one file, `dist/pack.js`, the entry point `package.json` names.
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

const here = dirname(dirname(fileURLToPath(import.meta.url)));

// Written aside and renamed into place: a pack process starting meanwhile never loads half a file.
const outfile = join(here, "dist", "pack.js");
const partial = `${outfile}.${process.pid}.tmp`;
await build({
  entryPoints: [join(here, "src", "index.ts")],
  outfile: partial,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  tsconfig: join(here, "tsconfig.json"),
  // `@cloudcost/pulumi/runtime` is only `require`d inside a dynamic provider's methods, which a policy
  // pack never calls; bundling it would pull the whole provider runtime in for nothing.
  external: ["@pulumi/pulumi", "@pulumi/pulumi/*", "@pulumi/policy", "@cloudcost/pulumi/runtime"],
  // The licence notices of the bundled packages travel inside the one file that ships.
  legalComments: "eof",
  logLevel: "warning",
});
renameSync(partial, outfile);
// The pack's entry point exports nothing; the declaration says so for tools that look for one.
writeFileSync(join(here, "dist", "pack.d.ts"), "export {};\n");
