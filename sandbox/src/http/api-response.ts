/** A successful API response, before it is sent (and as saved for `Idempotency-Key` replays). */
export interface ApiResponse {
  status: number;
  /** The JSON text sent, serialized once (the ETag is its digest); undefined for 204 No Content. */
  body: string | undefined;
  headers: Record<string, string>;
}
