import Database from "better-sqlite3";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { authorizeAsUser, signedInAgent } from "../oauth/support/demo-user";
import { authorizationRequest, discover, registerPublicClient } from "../oauth/support/oauth-client";
import { call } from "./api-client";

/** Rows of each identity table, read from the data folder's database (read-only, beside the running server). */
function rowCounts(dataDir: string): Record<"tokens" | "codes" | "sessions", number> {
  const db = new Database(join(dataDir, "sandbox.db"), { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { tokens: count("tokens"), codes: count("authorization_codes"), sessions: count("sessions") };
  } finally {
    db.close();
  }
}

/** Polls until `done` holds, for at most `limitMs` (no timing is asserted: only that it happens). */
async function eventually<T>(read: () => T, done: (value: T) => boolean, limitMs = 15_000): Promise<T> {
  const until = Date.now() + limitMs;
  let value = read();
  while (!done(value) && Date.now() < until) {
    await sleep(200);
    value = read();
  }
  return value;
}

/** Issue 14: expired and revoked credentials are purged, so the identity tables do not grow without bound. */
describe("purging expired credentials (serve --retention)", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--token-ttl", "1", "--code-ttl", "1", "--retention", "1"] });
  });
  afterAll(() => sb?.dispose());

  test("expired access tokens, expired and revoked API tokens and expired codes disappear; live tokens stay and work", async () => {
    const live = await sb.token("read");
    const start = rowCounts(sb.dataDir);
    const client = await sb.client("read");
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${sb.origin}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.client_id, client_secret: client.client_secret }),
      });
      expect(r.status).toBe(200);
    }
    await sb.cliJson(["token", "create", "--org", "demo", "--expires-in", "1", "--json"]);
    const revoked = await sb.token("read");
    expect((await sb.cli(["token", "revoke", "--org", "demo", revoked])).code).toBe(0);
    const as = await discover(sb.origin);
    const app = await registerPublicClient(as);
    const agent = await signedInAgent(sb.origin);
    for (let i = 0; i < 3; i++)
      expect((await authorizeAsUser(agent, (await authorizationRequest(as, app)).url)).searchParams.get("code")).toBeTruthy();
    // 7 tokens and 3 codes were stored (each answer above came from a stored row); all of them expire or were revoked.
    const after = await eventually(
      () => rowCounts(sb.dataDir),
      (c) => c.tokens === start.tokens && c.codes === 0,
    );
    expect(after.tokens).toBe(start.tokens);
    expect(after.codes).toBe(0);
    expect(after.sessions).toBeGreaterThan(0);
    expect((await call(sb, "GET", "/groups", { token: live })).status).toBe(200);
  });
});

describe("sessions per user are bounded", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.dispose());

  test("after 101 sign-ins of one user the first session is signed out and at most 100 are stored", async () => {
    const first = await signedInAgent(sb.origin);
    expect((await first.get("/portal/groups")).status).toBe(200);
    for (let batch = 0; batch < 25; batch++) await Promise.all(Array.from({ length: 4 }, () => signedInAgent(sb.origin)));
    expect(rowCounts(sb.dataDir).sessions).toBe(100);
    expect((await first.get("/portal/groups")).status).toBe(302);
  });
});
