/**
 * @cloudcost/testkit: what the tests, the demo and the bench drive the product with (README.md lists the
 * API and the engine rules the stand-in follows, each with its pulumi/pulumi source).
 */

// A real sandbox process on 127.0.0.1 and its CLI.
export * from "./sandbox";
// Child processes started by the kit: ready lines, graceful stops, deaths by a signal nobody sent.
export * from "./child-process";
// The real dynamic-provider host (@pulumi/pulumi/cmd/dynamic-provider) over gRPC.
export * from "./provider-host";
// The real policy-pack process (@pulumi/pulumi/cmd/run-policy-pack) over gRPC, configured as the CLI would.
export * from "./policy-pack";
// The engine stand-in: programs run by the real SDK, steps decided by pulumi/pulumi's rules.
export * from "./engine";
export * from "./mock-engine";
export * from "./deployment";
// A minimal engine for the bench: the provider host driven without the SDK in between.
export * from "./lean-engine";
// The real Pulumi CLI (built by scripts/pulumi-cli.js), isolated and offline: workspaces and stacks.
export * from "./pulumi-cli";
export * from "./process-tree";
