import type { FastifyInstance, FastifyRequest } from "fastify";
import { ServiceError } from "../errors";

export const FAULT_KINDS = ["429", "503", "reset", "latency", "reset-after"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** `serve --faults RATE --fault-seed N --fault-kinds …` (see sandbox/README.md, "Fault injection"). */
export interface FaultOptions {
  /** Share of requests that get a fault, 0..1. */
  rate: number;
  seed: number;
  kinds: readonly FaultKind[];
  /** Delay of a `latency` fault. */
  latencyMs: number;
}

/** mulberry32: a tiny seeded PRNG, so a seed gives the same fault sequence for the same request order. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Faults are decided in `onRequest`, before authentication and the handler, so a faulted request changes
 * nothing. The one exception is `reset-after`: the handler runs and commits, then the connection is
 * dropped instead of answering (the client cannot know whether its change happened).
 */
export function registerFaultInjection(api: FastifyInstance, options: FaultOptions, exempt: (request: FastifyRequest) => boolean): void {
  const random = seededRandom(options.seed);
  const dropAfterCommit = new WeakSet<FastifyRequest>();
  api.addHook("onRequest", async (request, reply) => {
    if (exempt(request) || random() >= options.rate) return;
    const kind = options.kinds[Math.floor(random() * options.kinds.length)] ?? options.kinds[0];
    if (kind === "429")
      throw new ServiceError(429, "rate-limited", "Too many requests", "Injected fault: retry after one second.", undefined, {
        "retry-after": "1",
      });
    if (kind === "503")
      throw new ServiceError(
        503,
        "unavailable",
        "Service unavailable",
        "Injected fault: the service is temporarily unavailable.",
        undefined,
        { "retry-after": "1" },
      );
    if (kind === "latency") return delay(options.latencyMs);
    if (kind === "reset-after") {
      dropAfterCommit.add(request);
      return;
    }
    request.raw.socket.destroy();
    reply.hijack();
  });
  api.addHook("onSend", async (request) => {
    if (dropAfterCommit.has(request)) request.raw.socket.destroy();
  });
}
