import { createHash, randomBytes, scrypt as scryptCallback, scryptSync, ScryptOptions, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

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

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: ScryptOptions) => Promise<Buffer>;

/**
 * scrypt cost. Deliberately below the OWASP cheat sheet's N=2^17 (r=8, p=1): the sandbox's seeded password
 * is public and tests sign in often; N=2^15 costs about 0.1-0.2 s per sign-in on a shared 2-core machine.
 */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

/** Hashes a user password with scrypt and a random salt: `scrypt$N$r$p$salt$key` (base64url parts). Synchronous: only seeding and the CLI create users. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, KEY_LENGTH, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Checks a password against `hashPassword` output in constant time, off the event loop; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}
