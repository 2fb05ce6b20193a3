import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { DEMO_ORG, startSandboxServer, type SandboxContext } from "@cloudcost/sandbox";

/**
 * The sandbox of `npm run bench -- sandbox`, in its own process: the whole server (rate limit off) plus two
 * plain fastify routes registered by the bench on the SAME server, connection and rows, which run the SQL
 * our list and create run and answer JSON of the same size, without authentication, validation, rate
 * limit, idempotency, ETag or our serialization. They are the baseline of issue 16 item 5.
 *
 * Usage: `node sandbox-server.js <dataDir>`; prints `... listening on <origin>/api/v1` when ready.
 */

/** The same SQL as `Groups.page` (sandbox/src/store/groups.ts): a page of rows, then one member query for them. */
function sameQueryRoute(app: FastifyInstance, ctx: SandboxContext, orgId: string): void {
  app.get("/bench/same-query/groups", () => ctx.groups.page(orgId, { limit: 50 }));
}

/** The id format of `newId("grp")`, so the answer has the same size. */
function groupId(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  let rand = "";
  for (const b of randomBytes(12)) rand += alphabet[b % 36];
  return `grp_${Date.now().toString(36).padStart(9, "0")}${rand}`;
}

interface GroupRow {
  id: string;
  name: string;
  description: string;
  source: string;
  created_at: string;
  updated_at: string;
}

/**
 * The statements `Groups.create` runs, in one `BEGIN IMMEDIATE` transaction committed before the answer
 * (the same fsync'ed commit as ours): the name check, the insert, and the row and its members read back.
 */
function sameInsertRoute(app: FastifyInstance, ctx: SandboxContext, orgId: string): void {
  const db = ctx.db;
  const taken = db.prepare("SELECT id FROM cloud_groups WHERE org_id = ? AND name_key = ?");
  const insert = db.prepare(
    "INSERT INTO cloud_groups (id, org_id, name, name_key, description, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const row = db.prepare("SELECT * FROM cloud_groups WHERE id = ? AND org_id = ?");
  const members = db.prepare("SELECT provider, account_id FROM group_members WHERE group_id = ?");
  const create = db.transaction((name: string) => {
    if (taken.get(orgId, name.toLowerCase())) throw new Error(`name ${name} is taken`);
    const id = groupId();
    const now = new Date().toISOString();
    insert.run(id, orgId, name, name.toLowerCase(), "", "api", now, now);
    const r = row.get(id, orgId) as GroupRow;
    const m = members.all(id) as { provider: string; account_id: string }[];
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      members: m.map((x) => ({ provider: x.provider, accountId: x.account_id })),
      source: r.source,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    };
  });
  app.post("/bench/same-insert/groups", (request, reply) => {
    const body: unknown = request.body;
    const name = typeof body === "object" && body !== null && "name" in body && typeof body.name === "string" ? body.name : "";
    reply.code(201).header("location", "/api/v1/groups/x");
    return create.immediate(name);
  });
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: sandbox-server.js <dataDir>");
  const server = await startSandboxServer({
    dataDir,
    rateLimitPerMinute: 0,
    beforeListen: (app, ctx) => {
      const org = ctx.orgs.byName(DEMO_ORG);
      if (!org) throw new Error("the data folder has no demo organization");
      sameQueryRoute(app, ctx, org.id);
      sameInsertRoute(app, ctx, org.id);
    },
  });
  console.log(`bench sandbox listening on ${server.url}`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
