import * as pulumi from "@pulumi/pulumi";
import type * as api from "@cloudcost/api";
import type * as clients from "./runtime/clients";

let logging = false;

/**
 * The client of the functions a Pulumi program calls (cost reads, the signing secret): they run in the
 * program process and are never serialized. Settings come from the `cloudcost` stack config with
 * `CLOUDCOST_*` environment fallbacks, as for the resources. Its requests are logged at debug level through
 * `pulumi.log`, which in a program reaches the engine (the provider host logs its own, runtime/engine-log).
 */
export function programClient(): api.CloudCostClient {
  // Required at the first call: a program that calls no function never loads the client and the contract (~70 ms of
  // CPU a program run; issue 39).
  const { requestLogLine } = require("@cloudcost/api") as typeof api;
  const { clientFor, logRequestsTo } = require("./runtime/clients") as typeof clients;
  if (!logging) {
    logging = true;
    logRequestsTo((entry) => void pulumi.log.debug(requestLogLine(entry)));
  }
  const config = new pulumi.Config("cloudcost");
  return clientFor((key) => config.get(key));
}
