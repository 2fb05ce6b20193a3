import { setTimeout as delay } from "node:timers/promises";
import { providerTexts, secret, startProviderHost, ProviderHost, startSandbox, RunningSandbox } from "@cloudcost/testkit";
import { CountingProxy, startCountingProxy } from "./support/counting-proxy";
import { revokeToken, UNLIMITED } from "./support/orgs";
import { checkAndCreate, Created, deleteAll, Desired, failures, readAll } from "./support/provider-run";

/** Access tokens live 2 s, so a run of a few seconds spans several lifetimes. */
const TOKEN_TTL_SECONDS = 2;
const WAVES = 5;
const PER_WAVE = 4;

const group = (run: string, n: number): Desired => ({
  kind: "CloudGroup",
  name: `${run}-${n}`,
  inputs: { name: `${run} ${n}`, awsAccountIds: ["111122223333"] },
});
const isToken = (s: { path: string }) => s.path === "/oauth/token";
const isApi = (s: { path: string }) => s.path.startsWith("/api/v1/");

/**
 * A sandbox (extra `serve` arguments) behind a counting proxy for the enclosing describe, and a fresh
 * provider host per test (a fresh process = a fresh token cache) talking to it through the proxy.
 */
function sandboxBehindProxy(serveArgs: string[] = []) {
  const env: { sb?: RunningSandbox; proxy?: CountingProxy; host?: ProviderHost } = {};
  beforeAll(async () => {
    env.sb = await startSandbox({ args: [...UNLIMITED, ...serveArgs] });
    env.proxy = await startCountingProxy(env.sb.origin);
  });
  afterEach(async () => {
    await env.host?.stop();
    env.host = undefined;
  });
  afterAll(async () => {
    await env.proxy?.close();
    await env.sb?.dispose();
  });
  return {
    sb: (): RunningSandbox => env.sb!,
    proxy: (): CountingProxy => env.proxy!,
    hostWith: async (config: Record<string, unknown>): Promise<ProviderHost> => {
      env.host = await startProviderHost();
      await env.host.configure({ "cloudcost:apiUrl": `${env.proxy!.origin}/api/v1`, ...config });
      return env.host;
    },
  };
}

describe("access tokens that expire in the middle of a run", () => {
  const { sb: sandbox, proxy: counting, hostWith } = sandboxBehindProxy(["--token-ttl", String(TOKEN_TTL_SECONDS)]);

  test("access tokens expiring during the run are renewed silently, about once per lifetime", async () => {
    const [sb, proxy] = [sandbox(), counting()];
    const client = await sb.client();
    const h = await hostWith({ "cloudcost:clientId": client.client_id, "cloudcost:clientSecret": secret(client.client_secret) });
    const providers = await providerTexts();
    const mark = proxy.seen.length;
    const started = Date.now();
    const created: Created[] = [];
    for (let wave = 0; wave < WAVES; wave++) {
      created.push(
        ...(await Promise.all(
          Array.from({ length: PER_WAVE }, (_, i) => checkAndCreate(h, group(`ttl${started}`, wave * PER_WAVE + i), providers)),
        )),
      );
      await delay(TOKEN_TTL_SECONDS * 500);
    }
    expect(failures(await readAll(h, created, 4))).toEqual([]);
    expect(failures(await deleteAll(h, created, 4))).toEqual([]);
    const elapsed = Date.now() - started;

    const traffic = proxy.since(mark);
    const tokenRequests = traffic.filter(isToken);
    // Renewed (the run outlived the first token), but at most once per lifetime plus one after a 401.
    const lifetimes = Math.ceil(elapsed / (TOKEN_TTL_SECONDS * 1000));
    const rejected = traffic.filter((s) => isApi(s) && s.status === 401).length;
    expect(tokenRequests.length).toBeGreaterThan(1);
    expect(tokenRequests.length).toBeLessThanOrEqual(lifetimes + 1 + rejected);
    expect(tokenRequests.every((s) => s.status === 200)).toBe(true);
    expect(h.stderr()).not.toContain(client.client_secret);
  });
});

/**
 * Credentials withdrawn mid-run. Access tokens keep the default one-hour lifetime here, so the cached
 * token is still valid when the client is deleted and the counts below do not depend on timing.
 */
describe("credentials withdrawn in the middle of a run", () => {
  const { sb: sandbox, proxy: counting, hostWith } = sandboxBehindProxy();

  test("a revoked API token fails the next operation with one error naming the cause, without a retry storm", async () => {
    const [sb, proxy] = [sandbox(), counting()];
    const token = await sb.token("read,write");
    const h = await hostWith({ "cloudcost:apiToken": secret(token) });
    const providers = await providerTexts();
    await checkAndCreate(h, group(`rev${Date.now()}`, 0), providers);
    await revokeToken(sb, "demo", token);

    const mark = proxy.seen.length;
    const error = await checkAndCreate(h, group(`rev${Date.now()}`, 1), providers).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/revoked/i);
    expect(error).not.toContain(token);
    expect(h.stderr()).not.toContain(token);
    expect(proxy.since(mark).filter(isApi).length).toBe(1);
  });

  test("deleting the OAuth client fails the next operation with one error naming the cause, without a retry storm", async () => {
    const [sb, proxy] = [sandbox(), counting()];
    const client = await sb.client();
    const h = await hostWith({ "cloudcost:clientId": client.client_id, "cloudcost:clientSecret": secret(client.client_secret) });
    const providers = await providerTexts();
    await checkAndCreate(h, group(`del${Date.now()}`, 0), providers);
    const deleted = await sb.cli(["client", "delete", "--org", "demo", client.client_id]);
    expect(deleted.code).toBe(0);

    const mark = proxy.seen.length;
    const error = await checkAndCreate(h, group(`del${Date.now()}`, 1), providers).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).toMatch(/invalid_client|revoked/);
    expect(error).not.toContain(client.client_secret);
    expect(h.stderr()).not.toContain(client.client_secret);
    const traffic = proxy.since(mark);
    // The cached access token is refused once; one new token request is refused; nothing more.
    expect(traffic.filter(isApi).length).toBe(1);
    expect(traffic.filter(isToken).length).toBe(1);
  });
});
