/** One HTTP exchange with the sandbox, recorded raw so tests can assert on exactly what a user would see. */
export interface WireRequest {
  method: string;
  /** Path relative to `{base_url}`, already filled in (e.g. `/groups/grp_…`), with its query string. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface WireResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON (or problem+json), else undefined. */
  json: unknown;
}

/** Sends `req` to `baseUrl` with an optional bearer token (`authorization` overrides the whole header). */
export async function send(baseUrl: string, req: WireRequest, auth?: { token?: string; authorization?: string }): Promise<WireResponse> {
  const headers: Record<string, string> = { ...req.headers };
  if (auth?.authorization !== undefined) headers.authorization = auth.authorization;
  else if (auth?.token !== undefined) headers.authorization = `Bearer ${auth.token}`;
  if (req.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(`${baseUrl}${req.path}`, {
    method: req.method,
    headers,
    body: req.body === undefined ? undefined : typeof req.body === "string" ? req.body : JSON.stringify(req.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: parseJson(res.headers.get("content-type"), text) };
}

function parseJson(contentType: string | null, text: string): unknown {
  if (!contentType || !/json/i.test(contentType) || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads every page of a list route (`items` + `nextCursor`, contract `page()`). Pages are small on
 * purpose, so every test that lists also exercises paging.
 */
export async function listAll<T>(baseUrl: string, token: string, path: string, pageSize = 20): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await send(baseUrl, { method: "GET", path: `${path}${query}` }, { token });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text}`);
    const page = res.json as { items: T[]; nextCursor: string | null };
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
