import { MAX_REDIRECT_URI_LENGTH as MAX_URI_LENGTH, isLoopbackHostname, parseUrl } from "@cloudcost/api/contract";

// The limits are the contract's: the document states them (`maxItems`, `maxLength`).
export { MAX_REDIRECT_URIS } from "@cloudcost/api/contract";

/**
 * Why a redirect URI may not be registered, or undefined if it may: absolute, no fragment (RFC 6749
 * §3.1.2), and https, http on loopback, or a private-use scheme in reverse-domain form (RFC 8252 §7.1).
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_URI_LENGTH) return `redirect URI longer than ${MAX_URI_LENGTH} characters`;
  const url = parseUrl(uri);
  if (!url) return `"${uri}" is not an absolute URI`;
  if (url.hash !== "" || uri.includes("#")) return `"${uri}" must not contain a fragment`;
  // `https://app.example@evil.example/` reads as app.example on a consent page but goes to evil.example.
  if (url.username !== "" || url.password !== "") return `"${uri}" must not contain user information (user@host)`;
  if (url.protocol === "https:") return undefined;
  // Judged by the parsed host: `http://localhost:1@evil.example/` is not a loopback URI.
  if (url.protocol === "http:")
    return isLoopbackHostname(url.hostname) ? undefined : `"${uri}": http is only allowed for loopback hosts (127.0.0.1, [::1], localhost)`;
  return /^[a-z][a-z0-9+-]*\.[a-z0-9.+-]+:$/.test(url.protocol)
    ? undefined
    : `"${uri}": the scheme must be https, http on loopback, or a private-use scheme like com.example.app`;
}
