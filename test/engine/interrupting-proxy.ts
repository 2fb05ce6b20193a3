/**
 * A proxy on 127.0.0.1 in front of the sandbox that interrupts a deployment at an exact request, not at a time:
 * armed with a count, it lets every request through until the Nth create or delete of a group, alert or report,
 * and then calls its trigger (which kills the Pulumi CLI) either before the request reaches the service ("in
 * flight": the service never sees it) or once the service has answered ("answered": the object is made or
 * deleted, the CLI never hears of it). Either way the caller's connection is cut, and the proxy disarms, so a
 * retry from a provider process that outlives the CLI goes through as it would on a user's machine. The count
 * and the point never depend on timing, however loaded the machine is; which resource's request is the Nth
 * can differ between runs, as the engine runs independent steps in parallel (the struck kind is reported).
 */
import {
  request as httpRequest,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

export type KillPoint = "in-flight" | "answered";
export type Kind = "group" | "alert" | "report";

/** The create or delete a request is, with the kind of object it makes or deletes; undefined for anything else. */
export function mutationOf(method: string, path: string): { kind: Kind; op: "create" | "delete" } | undefined {
  const m = /^\/api\/v1\/(groups|alerts|reports)(\/[^/?]+)?(\?.*)?$/.exec(path);
  if (!m) return undefined;
  const kind = ({ groups: "group", alerts: "alert", reports: "report" } as const)[m[1] as "groups" | "alerts" | "reports"];
  if (method === "POST" && m[2] === undefined) return { kind, op: "create" };
  if (method === "DELETE" && m[2] !== undefined) return { kind, op: "delete" };
  return undefined;
}

interface Armed {
  nth: number;
  /** Only this kind's creates and deletes count, when given. */
  kind: Kind | undefined;
  point: KillPoint;
  trigger: () => void;
  struck: (hit: { kind: Kind; op: "create" | "delete" }) => void;
}

export class InterruptingProxy {
  private armed: Armed | undefined;
  private seen = 0;
  /** Runs before each request is forwarded (e.g. a portal user deleting an object just before it is read). */
  beforeForward: ((method: string, path: string) => Promise<void>) | undefined;

  private constructor(
    private readonly server: Server,
    private readonly upstream: URL,
  ) {}

  /** The URL to give the provider instead of the sandbox's (same path). */
  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}${this.upstream.pathname.replace(/\/$/, "")}`;
  }

  static async start(upstreamBaseUrl: string): Promise<InterruptingProxy> {
    const upstream = new URL(upstreamBaseUrl);
    const server = createServer();
    const proxy = new InterruptingProxy(server, upstream);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => void proxy.handle(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  /**
   * Strikes at the NTH create or delete from now (1 = the next) — of KIND only, when given — at POINT: `trigger`
   * runs, the caller's connection is cut. Resolves with what the struck request was, or undefined if the
   * deployment ended first.
   */
  arm(
    nth: number,
    point: KillPoint,
    trigger: () => void,
    kind?: Kind,
  ): Promise<{ kind: Kind; op: "create" | "delete" } | undefined> & { disarm(): void } {
    let settle: (hit: { kind: Kind; op: "create" | "delete" } | undefined) => void = () => undefined;
    const struck = new Promise<{ kind: Kind; op: "create" | "delete" } | undefined>((resolve) => (settle = resolve));
    this.seen = 0;
    this.armed = { nth, kind, point, trigger, struck: settle };
    return Object.assign(struck, {
      disarm: () => {
        this.armed = undefined;
        settle(undefined);
      },
    });
  }

  private async handle(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const mutation = mutationOf(req.method ?? "GET", req.url ?? "/");
    const armed = this.armed;
    const counted = armed !== undefined && mutation !== undefined && (armed.kind === undefined || armed.kind === mutation.kind);
    const strike = counted && ++this.seen === armed.nth;
    if (strike) this.armed = undefined;
    if (strike && armed.point === "in-flight") {
      armed.trigger();
      armed.struck(mutation);
      res.socket?.destroy();
      return;
    }
    await this.beforeForward?.(req.method ?? "GET", req.url ?? "/");
    const answer = await this.forward(req, body);
    if (strike) {
      armed.trigger();
      armed.struck(mutation);
      res.socket?.destroy();
      return;
    }
    if (answer === undefined) {
      res.socket?.destroy();
      return;
    }
    const headers = { ...answer.headers, "content-length": String(answer.body.length) };
    delete headers["transfer-encoding"];
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  private forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer } | undefined> {
    return new Promise((resolve) => {
      const headers = { ...req.headers, host: this.upstream.host };
      const out = httpRequest(
        { host: this.upstream.hostname, port: this.upstream.port, method: req.method, path: req.url, headers },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (c: Buffer) => chunks.push(c));
          answer.on("end", () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
          answer.on("error", () => resolve(undefined));
        },
      );
      out.on("error", () => resolve(undefined));
      out.end(body);
    });
  }

  async dispose(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
