import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** One POST the receiver got, with what a Standard Webhooks receiver checks. */
export interface Delivered {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/**
 * A real HTTP webhook receiver on 127.0.0.1 for the tests: records every POST (retries and redeliveries
 * included) and answers 204. `verify` checks a recorded delivery with the `standardwebhooks` library.
 */
export interface RecordingReceiver {
  url: string;
  received: Delivered[];
  /** Resolves once `count` deliveries match (polls the record for at most 60 s, then fails). */
  waitFor(matches: (d: Delivered) => boolean, count?: number): Promise<Delivered[]>;
  close(): Promise<void>;
}

export function verify(secret: string, d: Delivered): unknown {
  return new Webhook(secret).verify(d.body, { "webhook-id": d.id, "webhook-timestamp": d.timestamp, "webhook-signature": d.signature });
}

export async function startRecordingReceiver(): Promise<RecordingReceiver> {
  const received: Delivered[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const header = (name: string) => String(request.headers[name] ?? "");
      received.push({
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        body: Buffer.concat(chunks).toString("utf8"),
        headers: request.headers,
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: async (matches, count = 1) => {
      for (let i = 0; i < 1200; i++) {
        const found = received.filter(matches);
        if (found.length >= count) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`the receiver got ${received.filter(matches).length} of ${count} matching webhooks within 60 s`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
