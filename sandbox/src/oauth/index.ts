import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../context";

/** Registers the authorization server (token, discovery, registration, revocation, …) at the origin root. */
export async function registerOAuth(_app: FastifyInstance, _ctx: SandboxContext): Promise<void> {}
