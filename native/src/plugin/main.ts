import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { engineAddressOf, engineRequestLog, logRequestsTo } from "@cloudcost/pulumi/runtime";
import { PLUGIN_VERSION } from "../version";
import { providerService } from "./provider-service";
import { loadSchema } from "./schema-file";

/*
 * `pulumi-resource-cloudcost`: the engine starts it with the engine's address as its argument, reads the
 * port it prints on stdout, then talks gRPC (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go). It
 * serves until the engine closes its stdin or kills it. Every request to the service is logged to that engine
 * at debug level (issue 38, @cloudcost/pulumi/runtime engine-log).
 */
async function main(): Promise<void> {
  const engine = engineAddressOf(process.argv.slice(2));
  // The stubs this plugin bundles (with the grpc-js its server uses): a packed plugin has no @pulumi/pulumi install
  // beside it for the runtime to find its own in.
  const stubs = { createInsecure: () => grpc.credentials.createInsecure(), EngineClient, LogRequest, LogSeverity };
  if (engine !== undefined) logRequestsTo(engineRequestLog(engine, stubs));
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(ResourceProviderService, providerService(PLUGIN_VERSION, loadSchema()));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`pulumi-resource-cloudcost: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
