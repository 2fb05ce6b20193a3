/**
 * An error as the user sees it: its message and nothing else. The dynamic-provider host prints every error a
 * handler throws as `${e}: ${e.stack}` before the engine shows the message (@pulumi/pulumi
 * cmd/dynamic-provider/index.ts), so an error carrying stack frames would show users our source paths. The
 * original error stays reachable as `cause`.
 */
export class UserFacingError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UserFacingError";
    this.stack = "";
  }

  override toString(): string {
    return this.message;
  }
}

/** The error a handler hands to the host: the same message, no stack frames, the original as `cause`. */
export function userFacing(e: unknown): UserFacingError {
  if (e instanceof UserFacingError) return e;
  return new UserFacingError(e instanceof Error ? e.message : String(e), { cause: e });
}
