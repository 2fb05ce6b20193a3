export { CloudCostClient, type ClientAuth, type ClientOptions, type CallInput, type CreateOptions, type CrudMethods } from "./client";
export { ApiError, type ApiErrorInit } from "./api-error";
export { DEFAULT_RETRY, type RetryOptions } from "./retry-policy";
export { closeAllPools } from "./pools";
export type { RequestEvent } from "./transport";
export { requestLogLine, type RequestLog, type RequestLogEntry } from "./request-log";
