import { createServer, request as forward, IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request that went through the proxy, with the status the sandbox answered (0: no answer). */
export interface Seen {
  method: string;
  /** Path without the query string. */
  path: string;
  status: number;
  /** The answer's body, kept only for paths the proxy was asked to capture. */
  body?: string;
}

export interface CountingProxy {
  /** `{auth_url}` of the proxy: point the provider here instead of at the sandbox. */
  origin: string;
  seen: Seen[];
  /** Requests seen since `mark` (the index returned by `seen.length` at that time). */
  since(mark: number): Seen[];
  close(): Promise<void>;
}

/** An answer the proxy gives itself instead of forwarding (a status and a problem+json title). */
export interface Refusal {
  status: number;
  title: string;
}

/**
 * A loopback reverse proxy in front of the sandbox that records every request, so a test can count
 * what a client really sent (token requests, retries) without trusting the client's own numbers, and
 * can learn secrets only the client saw (the access tokens it was issued) to search for them. `refuse`
 * may answer a request itself (recorded with its status, never forwarded): a route failing on purpose.
 */
export async function startCountingProxy(
  target: string,
  capture: (path: string) => boolean = () => false,
  refuse: (method: string, url: string) => Refusal | undefined = () => undefined,
): Promise<CountingProxy> {
  const upstream = new URL(target);
  const seen: Seen[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const entry: Seen = { method: req.method ?? "", path: (req.url ?? "").split("?")[0]!, status: 0 };
    seen.push(entry);
    const refusal = refuse(entry.method, req.url ?? "");
    if (refusal) {
      entry.status = refusal.status;
      req.resume();
      res
        .writeHead(refusal.status, { "content-type": "application/problem+json" })
        .end(JSON.stringify({ type: "about:blank", title: refusal.title, status: refusal.status }));
      return;
    }
    const out = forward(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        res.writeHead(entry.status, answer.headers);
        if (capture(entry.path)) {
          entry.body = "";
          answer.on("data", (d: Buffer) => (entry.body += d.toString()));
        }
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    since: (mark) => seen.slice(mark),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
