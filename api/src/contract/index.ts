/**
 * The wire contract alone (zod schemas, routes, rules): what a server of the API needs, without the client (undici)
 * or the OpenAPI builder. `@cloudcost/api/contract`; the package's main entry is this plus both.
 */
export * from "./common";
export * from "./loopback";
export * from "./account";
export * from "./cloud-group";
export * from "./budget-period";
export * from "./cost-filter";
export * from "./webhook-url";
export * from "./budget-alert";
export * from "./scheduled-report";
export * from "./dry-run";
export * from "./cost";
export * from "./finding";
export * from "./scan";
export * from "./event";
export * from "./filter";
export * from "./idempotency";
export * from "./oauth";
export * from "./routes";
export { z } from "./zod";
