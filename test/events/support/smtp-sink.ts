import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** The reply to each command (anything else: `250 ok`). */
const ANSWERS: Readonly<Record<string, string>> = {
  EHLO: "250-sink\r\n250 8BITMIME",
  HELO: "250 sink",
  MAIL: "250 2.1.0 ok",
  RCPT: "250 2.1.5 ok",
  DATA: "354 go ahead",
  QUIT: "221 bye",
};

/** One message as the sink received it. */
export interface SunkMessage {
  from: string;
  to: string[];
  /** The DATA section (headers and MIME body), dot-unstuffed. */
  data: string;
}

/**
 * The smallest SMTP server (RFC 5321 §3–4: greeting, EHLO, MAIL, RCPT, DATA, QUIT) on 127.0.0.1, so the
 * relay is tested against a real SMTP conversation rather than a mock of the mail library.
 */
export class SmtpSink {
  readonly messages: SunkMessage[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<SmtpSink> {
    const server = createServer();
    const sink = new SmtpSink(server);
    server.on("connection", (socket) => sink.converse(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private converse(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffer = "";
    let inData = false;
    let current: SunkMessage = { from: "", to: [], data: "" };
    const reply = (text: string) => socket.write(`${text}\r\n`);
    reply("220 sink ESMTP");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end).replace(/\r\n\.\./g, "\r\n.");
          buffer = buffer.slice(end + 5);
          inData = false;
          this.messages.push(current);
          current = { from: "", to: [], data: "" };
          reply("250 2.0.0 queued");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") current.from = line.slice(10).trim();
        if (verb === "RCPT") current.to.push(line.slice(8).trim());
        if (verb === "DATA") inData = true;
        reply(ANSWERS[verb] ?? "250 ok");
        if (verb === "QUIT") socket.end();
      }
    });
  }
}
