import * as pulumi from "@pulumi/pulumi";
import type { CloudCostClient } from "@cloudcost/api";
import { clientFor } from "./runtime/clients";

/**
 * The client of the functions a Pulumi program calls (cost reads, the signing secret): they run in the
 * program process and are never serialized. Settings come from the `cloudcost` stack config with
 * `CLOUDCOST_*` environment fallbacks, as for the resources.
 */
export function programClient(): CloudCostClient {
  const config = new pulumi.Config("cloudcost");
  return clientFor((key) => config.get(key));
}
