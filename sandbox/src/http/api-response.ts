/** A successful API response, before it is sent (and as saved for `Idempotency-Key` replays). */
export interface ApiResponse {
  status: number;
  /** Undefined for 204 No Content. */
  body: unknown;
  headers: Record<string, string>;
}
