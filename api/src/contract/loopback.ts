/**
 * Host names that always mean "this machine" (RFC 8252 §7.3 and §8.3; RFC 6761 §6.3 for `localhost`), as
 * WHATWG URL spells `URL.hostname` (IPv6 in brackets, lower case). One list for every rule that lets
 * plain http through on loopback only: webhook URLs here, redirect URIs and accepted `Host` values in the
 * sandbox. Always compare a *parsed* host with it, never a string prefix: `http://localhost:1@evil.example/`
 * starts with `http://localhost` but its host is `evil.example`.
 */
export const LOOPBACK_HOSTNAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.includes(hostname.toLowerCase());
}

/** The parsed URL, or undefined when `text` is not an absolute URL (WHATWG URL parser). */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
