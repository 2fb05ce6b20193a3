import type * as pulumi from "@pulumi/pulumi";

/** The three resource kinds; each has its own handlers in `@cloudcost/pulumi/runtime`. */
export type ResourceKind = "CloudGroup" | "BudgetAlert" | "ScheduledReport";

/**
 * The provider object every resource hands to `pulumi.dynamic.Resource`. Pulumi serializes it into the
 * `__provider` property of EVERY resource's state, so it must stay tiny and hold nothing secret:
 * it captures only the kind string `k`, and `$` `require`s the runtime at call time (a package `require`
 * stays a `require` in the serialized text instead of inlining the module by value). Settings and
 * credentials reach the runtime through `configure` or the environment, never through a capture.
 * Names are short on purpose: every character here is stored once per resource in state.
 */
export function dynamicProvider(k: ResourceKind): pulumi.dynamic.ResourceProvider {
  const $ = (m: keyof pulumi.dynamic.ResourceProvider, a: unknown[]) => require("@cloudcost/pulumi/runtime")[k][m](...a);
  return {
    configure: (...a) => $("configure", a),
    check: (...a) => $("check", a),
    diff: (...a) => $("diff", a),
    create: (...a) => $("create", a),
    read: (...a) => $("read", a),
    update: (...a) => $("update", a),
    delete: (...a) => $("delete", a),
  };
}

/**
 * Makes `mod.exports` (set to `provider`) findable by Pulumi's closure serializer as a module INSIDE
 * node_modules, so it is written as `require("@cloudcost/pulumi/dist/providers/<kind>.js")`.
 *
 * The serializer (@pulumi/pulumi runtime/closure/createClosure.ts, `findNormalizedModuleNameAsync` and
 * `captureModuleAsync`) looks the captured object up in `require.cache` and takes the FIRST key whose
 * module exports it: a key with a `node_modules` segment becomes a `require`, any other is a local module
 * serialized by value. Installed with npm the real path already has that segment. In an npm workspace
 * (this repository) Node records the symlink's target (`provider/dist/...`), which is not under
 * node_modules, and under pnpm the store path (`node_modules/.pnpm/...`), which older SDKs cannot map to
 * the package's exports; there the same module is also entered under the path the program reaches it by
 * (`<dir>/node_modules/@cloudcost/pulumi/...`, found as Node's resolution would from the program's
 * folder), ahead of the real one. Nothing is loaded twice: both keys hold the same Module. When the
 * package cannot be reached through any node_modules folder, nothing changes and the provider is
 * serialized by value (the 2 KB form of release 0.1.0), which works too.
 */
export function packagedModule<T>(mod: NodeModule, provider: T): T {
  mod.exports = provider;
  try {
    aliasUnderNodeModules(mod);
  } catch {
    // Only the size of `__provider` depends on this.
  }
  return provider;
}

const PACKAGE = "@cloudcost/pulumi";

function aliasUnderNodeModules(mod: NodeModule): void {
  const { dirname, join, relative, sep } = require("node:path") as typeof import("node:path");
  const { existsSync, realpathSync } = require("node:fs") as typeof import("node:fs");
  // Installed with npm the real path is `<project>/node_modules/@cloudcost/pulumi/...`: nothing to do. Under
  // pnpm it is `node_modules/.pnpm/<store entry>/node_modules/...`, which @pulumi/pulumi before ~3.270 cannot
  // map to an export of the package (runtime/closure/package.js `ModuleMap.get` throws "export path not
  // found"), so there too the module is entered under the path the program reaches it by.
  const segments = mod.filename.split(sep);
  if (segments.includes("node_modules") && !segments.includes(".pnpm")) return;
  const packageRoot = dirname(dirname(dirname(mod.filename)));
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const linked = join(dir, "node_modules", PACKAGE);
    if (existsSync(linked) && realpathSync(linked) === realpathSync(packageRoot)) {
      const alias = join(linked, relative(packageRoot, mod.filename));
      const cache = require.cache;
      const real = cache[mod.filename];
      if (!real || cache[alias]) return;
      // Re-inserted after the alias so that a lookup in insertion order meets the alias first.
      delete cache[mod.filename];
      cache[alias] = real;
      cache[mod.filename] = real;
      return;
    }
    if (dirname(dir) === dir) return;
  }
}
