import { request } from "node:http";
import { connect } from "node:net";

/** A response read with node:http, which (unlike fetch) may send any `Host` and oversized headers. */
export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** One request to `origin` + `path` with node:http: every header exactly as given, `Host` included. */
export function rawRequest(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawReply> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: `${url.pathname}${url.search}`,
        headers,
        setHost: headers.host === undefined && headers.Host === undefined,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Writes raw bytes to the sandbox's port and returns everything it answers before it closes the connection. */
export function rawExchange(origin: string, bytes: string): Promise<string> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = "";
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no answer and no close (so far: ${JSON.stringify(answer.slice(0, 200))})`));
    });
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    socket.on("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNRESET" || err.code === "EPIPE" ? resolve(answer) : reject(err)));
    socket.on("close", () => resolve(answer));
    socket.end(Buffer.from(bytes, "latin1"));
  });
}

/** Splits a raw HTTP/1.1 answer into status, lower-cased headers and body. */
export function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const end = answer.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = answer.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1]), headers, body: answer.slice(end + 4) };
}
