import type { FastifyInstance } from "fastify";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * How much of a request the server reads and throws away so that a client still sending can read an answer
 * given before its body was read (413, 415, 421, 503, …; 431 and 400 from Node's parser): sixteen times the
 * body limit, within five seconds. A longer or slower body has its connection closed anyway — the bound
 * keeps a client from holding the server busy with a body it will never use.
 */
export const DISCARD_LIMIT: Readonly<{ bytes: number; ms: number }> = { bytes: 16 * 1024 * 1024, ms: 5_000 };

/**
 * Reads the rest of `request`'s body and discards it. Resolves true once the body has ended (or was
 * complete already), false when the client gave up or the limit ran out first.
 */
function discardRest(request: IncomingMessage): Promise<boolean> {
  if (request.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean): void => {
      clearTimeout(timer);
      request.off("data", onData).off("end", onEnd).off("close", onClose).off("error", onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > DISCARD_LIMIT.bytes) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onClose = (): void => finish(request.complete);
    const timer = setTimeout(() => finish(false), DISCARD_LIMIT.ms).unref();
    request.on("data", onData).on("end", onEnd).on("close", onClose).on("error", onClose);
    request.resume();
  });
}

/**
 * An answer given before the request's body was read (the body limit, an unsupported media type, the host
 * check, a server shutting down) waits until the rest of the body has arrived and been discarded, then goes
 * out. Node's server closes the connection as soon as a `Connection: close` answer is written (fastify sets
 * that on every body it refuses); a client still sending then meets a reset and may never read the answer
 * (RFC 9112 §9.6), so it looks like a broken connection rather than the documented 413 (RFC 9110 §15.5.14).
 * Node offers no staged close for a response, hence the discard comes first. A body over
 * {@link DISCARD_LIMIT} is answered at once with `Connection: close`.
 */
export function registerEarlyAnswerDiscard(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.raw.complete) return payload;
    if (!(await discardRest(request.raw))) reply.header("connection", "close");
    return payload;
  });
}

/** Sockets already closing in stages. */
const closing = new WeakSet<Socket>();

export function isClosingInStages(socket: Socket): boolean {
  return closing.has(socket);
}

/**
 * Closes a connection after an answer written straight to it (errors of Node's parser: 431, 400, 408) in
 * the stages of RFC 9112 §9.6: half-close (the client sees the answer end), then keep reading and
 * discarding what the client still sends until it closes too or {@link DISCARD_LIMIT} runs out, then
 * close. Closing at once would reset a connection the client is still writing to, and the reset can
 * discard the answer before the client reads it.
 */
export function closeInStages(socket: Socket): void {
  if (closing.has(socket)) return;
  closing.add(socket);
  let seen = 0;
  const timer = setTimeout(() => socket.destroy(), DISCARD_LIMIT.ms).unref();
  socket.on("data", (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DISCARD_LIMIT.bytes) socket.destroy();
  });
  socket.once("close", () => clearTimeout(timer));
  socket.end();
  socket.resume();
}
