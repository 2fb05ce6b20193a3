import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../context";

/** Registers the portal's server-rendered pages under `/portal`. */
export async function registerPortal(_app: FastifyInstance, _ctx: SandboxContext): Promise<void> {}
