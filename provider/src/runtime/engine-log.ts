import { createRequire } from "node:module";
import { requestLogLine, type RequestLog } from "@cloudcost/api";
import type { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";

/*
 * The request log of both provider doors goes to the engine's log (issue 38): the engine starts a provider
 * with its own address as the last argument (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go,
 * `buildPluginArguments`), and a provider logs through that engine's `pulumirpc.Engine/Log`. At DEBUG the
 * engine hands the line to its diagnostics sink (pkg/host/host_server.go `Log` → `diag.Sink.Debugf`), which
 * writes it to the CLI's own log at verbosity 3 and up (`pulumi up --logtostderr -v=3`, or `-v=9`) and shows
 * it in the display only with `--debug`: a plain `pulumi up` stays as it was.
 *
 * The dynamic-provider host cannot use `pulumi.log`: it never learns the engine's address, so `pulumi.log.debug`
 * there prints nothing. The provider cannot learn the CLI's verbosity either (plugins get `-v` only with
 * `--logflow`), so every line is sent; each is one small unary call, sent without waiting for its answer.
 */

/** The engine's address among a provider's arguments: flags the engine may put first are skipped (as `@pulumi/pulumi/provider` does). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tracing") i++;
    else if (arg !== "--logtostderr" && !arg.startsWith("-v=")) return arg;
  }
  return undefined;
}

/** What a request log needs of the engine's gRPC stubs: one grpc-js instance's credentials and its client. */
export interface EngineLogStubs {
  createInsecure(): ConstructorParameters<typeof EngineClient>[1];
  EngineClient: typeof EngineClient;
  LogRequest: typeof LogRequest;
  LogSeverity: typeof LogSeverity;
}

/**
 * @pulumi/pulumi's own stubs, found at run time beside its install: the client's credentials must come from the
 * same grpc-js instance as its constructor, and this package declares no grpc-js of its own. A bundle (the native
 * plugin) has no install to look in and passes the stubs it bundled instead.
 */
function pulumiEngineStubs(): EngineLogStubs {
  const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/proto/engine_grpc_pb"));
  const grpc = fromPulumi("@grpc/grpc-js") as { credentials: { createInsecure: EngineLogStubs["createInsecure"] } };
  const { EngineClient: Client } = fromPulumi("./engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
  const pb = fromPulumi("./engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  return {
    createInsecure: () => grpc.credentials.createInsecure(),
    EngineClient: Client,
    LogRequest: pb.LogRequest,
    LogSeverity: pb.LogSeverity,
  };
}

/** A request log that sends each line to the engine at `address` as a DEBUG message. */
export function engineRequestLog(address: string, stubs: EngineLogStubs = pulumiEngineStubs()): RequestLog {
  const engine = new stubs.EngineClient(address, stubs.createInsecure());
  return (entry) => {
    const request = new stubs.LogRequest().setSeverity(stubs.LogSeverity.DEBUG).setMessage(requestLogLine(entry));
    // A line the engine did not take must not fail the deployment it describes.
    engine.log(request, () => undefined);
  };
}
