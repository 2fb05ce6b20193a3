import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call, fields } from "./api-client";

/**
 * Issue 14, item 10: admin commands run while `serve` writes to the same data folder. SQLite lets one
 * writer at a time; every connection must wait for the lock and retry instead of failing with
 * `database is locked` (before the fix, about one command in three failed under this load).
 */
describe("the CLI beside a busy serve", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ args: ["--rate-limit", "0"] });
  });
  afterAll(() => sb?.dispose());

  test("account add, token create, client create and org create never fail while the server writes", async () => {
    const token = await sb.token();
    let writing = true;
    let writes = 0;
    const writer = async () => {
      while (writing) {
        const r = await call(sb, "POST", "/groups", { token, json: { name: `Busy ${Math.random()}` } });
        if (r.status !== 201) throw new Error(`the server failed a write: ${r.status} ${r.text}`);
        writes++;
      }
    };
    const writers = Array.from({ length: 6 }, writer);
    const failures: string[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const results = await Promise.all([
          sb.cli(["account", "add", "--org", "demo", "--provider", "aws", "--id", String(200000000000 + i)]),
          sb.cli(["token", "create", "--org", "demo", "--json"]),
          sb.cli(["client", "create", "--org", "demo", "--scopes", "read", "--json"]),
          sb.cli(["org", "create", `busy-${i}`, "--json"]),
        ]);
        for (const r of results) if (r.code !== 0) failures.push(r.stderr.trim());
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    expect(failures).toEqual([]);
    expect(writes).toBeGreaterThan(0);
    const accounts = fields(await call(sb, "GET", "/accounts?limit=200", { token })).items as { accountId: string }[];
    expect(accounts.filter((a) => a.accountId.startsWith("2000000000"))).toHaveLength(8);
    // 32 CLI processes beside six writers: minutes on two busy cores, and that is no failure.
  });
});
