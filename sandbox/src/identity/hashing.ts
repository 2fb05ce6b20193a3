import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Secrets and tokens are stored only as SHA-256 digests. They are 256-bit random values, so a fast
 * hash is enough (no password stretching needed); user passwords use scrypt instead.
 */
export function digest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time comparison of a presented secret with a stored digest. */
export function matchesDigest(secret: string, storedDigest: string): boolean {
  const a = Buffer.from(digest(secret), "hex");
  const b = Buffer.from(storedDigest, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
