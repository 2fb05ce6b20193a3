import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One webhook as the receiver got it. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Wall-clock ms when it arrived. */
  at: number;
}

/** How the receiver answers the n-th request (from 0): a status, or `hang` (never answers; the sender's timeout must end it). */
export type Answer = number | "hang";

/** A real HTTP receiver on 127.0.0.1, as a user's webhook endpoint would be. */
export class Receiver {
  readonly received: Received[] = [];
  private readonly hanging: ServerResponse[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    private answer: (n: number) => Answer,
  ) {}

  static async start(answer: (n: number) => Answer = () => 204): Promise<Receiver> {
    const server = createServer();
    const receiver = new Receiver(server, answer);
    server.on("request", (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => receiver.handle(req.headers, Buffer.concat(chunks).toString("utf8"), res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Changes how the following requests are answered. */
  answerWith(answer: (n: number) => Answer): void {
    this.answer = answer;
  }

  /** Resolves once `count` requests arrived; rejects after `timeoutMs` (bounded: the test never hangs). */
  waitFor(count: number, timeoutMs = 20_000): Promise<Received[]> {
    if (this.received.length >= count) return Promise.resolve(this.received.slice(0, count));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver got ${this.received.length} of ${count} webhooks in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.received.slice(0, count));
        },
      });
    });
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(headers: IncomingHttpHeaders, body: string, res: ServerResponse): void {
    const n = this.received.length;
    this.received.push({ headers, body, at: Date.now() });
    const answer = this.answer(n);
    if (answer === "hang") this.hanging.push(res);
    else res.writeHead(answer).end();
    const ready = this.waiters.filter((w) => this.received.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.received.length < w.count);
    for (const w of ready) w.resolve();
  }
}
