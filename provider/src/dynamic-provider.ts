import type * as pulumi from "@pulumi/pulumi";

/** The three resource kinds; each has its own handlers in `@cloudcost/pulumi/runtime`. */
export type ResourceKind = "CloudGroup" | "BudgetAlert" | "ScheduledReport";

/**
 * The provider object every resource hands to `pulumi.dynamic.Resource`. Pulumi serializes it into the
 * `__provider` property of EVERY resource's state, so it must stay tiny (≤ 2 KB) and hold nothing secret:
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
