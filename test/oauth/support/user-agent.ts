/**
 * A minimal browser stand-in over fetch: keeps cookies per name, never follows redirects by itself,
 * and fills forms with their CSRF token. Enough to drive the sandbox's server-rendered pages over HTTP.
 */
export class UserAgent {
  private readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  /** Cookie attributes of the last `Set-Cookie` per cookie name, for assertions. */
  readonly setCookieHeaders = new Map<string, string>();

  private remember(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      this.setCookieHeaders.set(name, header);
      const value = pair!.slice(eq + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  /** The name of the cookie this agent holds whose name starts with `prefix` (cookie names carry the sandbox's instance ID). */
  cookieNamed(prefix: string): string | undefined {
    return [...this.cookies.keys(), ...this.setCookieHeaders.keys()].find((n) => n.startsWith(prefix));
  }

  /** The last `Set-Cookie` header of the cookie whose name starts with `prefix`. */
  setCookieStartingWith(prefix: string): string | undefined {
    return [...this.setCookieHeaders].find(([n]) => n.startsWith(prefix))?.[1];
  }

  /** Whether the agent holds a cookie whose name starts with `prefix`. */
  hasCookieStartingWith(prefix: string): boolean {
    return [...this.cookies.keys()].some((n) => n.startsWith(prefix));
  }

  async get(pathOrUrl: string): Promise<Response> {
    const response = await fetch(new URL(pathOrUrl, this.origin), { redirect: "manual", headers: this.cookieHeader() });
    this.remember(response);
    return response;
  }

  async post(pathOrUrl: string, fields: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const one of ([] as string[]).concat(v)) body.append(k, one);
    const response = await fetch(new URL(pathOrUrl, this.origin), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...this.cookieHeader() },
      body,
    });
    this.remember(response);
    return response;
  }

  /** A POST with no body at all (no content type either), e.g. with the CSRF token in a header instead. */
  async postWithoutBody(pathOrUrl: string, headers: Record<string, string>): Promise<Response> {
    const response = await fetch(new URL(pathOrUrl, this.origin), {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, ...this.cookieHeader() },
    });
    this.remember(response);
    return response;
  }
}

/** The hidden fields of the first POST form in `page` whose action is `action` (CSRF token included). */
export function hiddenFields(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`method="post" action="${action}"`);
  if (start < 0) throw new Error(`no form with action ${action} in page:\n${page}`);
  const form = page.slice(start, page.indexOf("</form>", start));
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) fields[m[1]!] = decodeEntities(m[2]!);
  return fields;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export const location = (response: Response): string => {
  const value = response.headers.get("location");
  if (value === null) throw new Error(`expected a redirect, got ${response.status}`);
  return value;
};
