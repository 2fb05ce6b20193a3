import { createHash } from "node:crypto";
import { ServiceError } from "../errors";

/** A strong validator of a representation: a digest of exactly the JSON text sent (RFC 9110 §8.8.3). */
export function etagOfJson(json: string): string {
  return `"${createHash("sha256").update(json).digest("base64url").slice(0, 32)}"`;
}

/** The ETag `representation` is sent with. */
export function etagOf(representation: unknown): string {
  return etagOfJson(JSON.stringify(representation));
}

/**
 * RFC 9110 §13.1.1 If-Match with the strong comparison: `*` matches any current representation, a weak
 * tag never matches. No header means no precondition. `current` is only read when there is a tag to
 * compare with (a missing object is then a 404 from it, as from the operation itself).
 */
export function assertIfMatch(ifMatch: string | undefined, current: () => unknown): void {
  if (ifMatch === undefined) return;
  if (ifMatch.trim() === "*") return;
  const tags = ifMatch.match(/(W\/)?"[^"]*"/g) ?? [];
  const currentTag = etagOf(current());
  if (tags.some((t) => t === currentTag)) return;
  throw new ServiceError(
    412,
    "precondition-failed",
    "Precondition failed",
    `If-Match ${ifMatch} does not match the current ETag ${currentTag}; read the resource again and retry.`,
    undefined,
    { etag: currentTag },
  );
}
