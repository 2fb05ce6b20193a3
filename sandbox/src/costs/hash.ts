/**
 * cyrb53: a fast, well-mixed 53-bit string hash. The synthetic cost data is a pure function of
 * (organization, account, service, date) through it, so nothing per day is stored.
 */
function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A deterministic number in [0, 1) for the given parts. */
export function unitHash(...parts: readonly string[]): number {
  return cyrb53(parts.join("\u0000")) / 2 ** 53;
}
