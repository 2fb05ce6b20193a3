import { API_BASE_PATH as API_PATH } from "@cloudcost/api";

/**
 * `cloudcost:apiUrl` as the client needs it: an absolute http(s) URL ending in `/api/v1`, without a trailing
 * slash. What is unambiguous is accepted and normalised — a bare origin (`https://host` → `https://host/api/v1`)
 * and trailing slashes. Anything else (the portal's URL, another path, a query, credentials in the URL) is
 * refused with the exact value to set, so a wrong URL never turns into a misleading 404 or 403 later.
 * Returns the normalised URL, or throws an Error whose message says what to set; `key` names the setting.
 */
export function normaliseApiUrl(value: string, key: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${key} must be an absolute URL such as https://cloudcost.example.com${API_PATH}; got "${value}"`);
  }
  const shown = `${url.protocol}//${url.host}`;
  const suggestion = `${shown}${API_PATH}`;
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`${key} must be an http or https URL such as https://cloudcost.example.com${API_PATH}; got a ${url.protocol} URL`);
  // Never echo credentials: they would end up in logs (the rest of the message names host and path only).
  if (url.username || url.password)
    throw new Error(
      `${key} must not contain a user name or password; set it to ${suggestion} and use cloudcost:apiToken or client credentials`,
    );
  if (url.search || url.hash)
    throw new Error(`${key} must not have a query or fragment; set it to ${shown}${url.pathname.replace(/\/+$/, "")}`);
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "") return suggestion;
  if (path.endsWith(API_PATH)) return `${shown}${path}`;
  if (path === "/portal" || path.startsWith("/portal/"))
    throw new Error(`${key} points at the portal (${shown}${path}); set it to the API base URL ${suggestion}`);
  throw new Error(`${key} must be the API base URL ending in ${API_PATH}, such as ${suggestion}; got ${shown}${path}`);
}
