import { PROBLEM_TYPE_BASE, type Problem } from "@cloudcost/api";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { newId } from "../ids";

/** What the HTTP parser refuses before any route runs (Node's `clientError`), in problem terms. */
function describe(error: NodeJS.ErrnoException): { status: number; slug: string; detail: string } {
  if (error.code === "HPE_HEADER_OVERFLOW") return { status: 431, slug: "headers-too-large", detail: "The request headers are larger than the server accepts (16 KiB)." };
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return { status: 408, slug: "request-timeout", detail: "The request did not arrive in time." };
  return { status: 400, slug: "malformed-request", detail: "The request is not valid HTTP/1.1." };
}

/**
 * fastify's `clientErrorHandler`: a request the HTTP parser cannot accept (headers over the limit, broken
 * framing) still gets an RFC 9457 problem with a request ID, like every other error of the service, and
 * the connection is closed (its framing cannot be trusted any more).
 */
export function sendClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, slug, detail } = describe(error);
  const requestId = newId("req");
  const title = STATUS_CODES[status] ?? "Bad Request";
  const problem: Problem = { type: `${PROBLEM_TYPE_BASE}${slug}`, title, status, detail, requestId };
  const body = JSON.stringify(problem);
  const head = [`HTTP/1.1 ${status} ${title}`, "Content-Type: application/problem+json; charset=utf-8", `Content-Length: ${Buffer.byteLength(body)}`, `X-Request-Id: ${requestId}`, "Connection: close"];
  if (socket.writable) socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  else socket.destroy();
}
