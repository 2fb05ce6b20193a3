import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

/**
 * The client behind a corporate proxy: HTTP_PROXY / HTTPS_PROXY are honoured (a real CONNECT proxy on
 * 127.0.0.1 relays to a real sandbox), and loopback origins never go through the proxy.
 */
describe("client behind an HTTP proxy", () => {
  const PROXY_VARS = ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"];
  const saved = Object.fromEntries(PROXY_VARS.map((k) => [k, process.env[k]]));
  let sandbox: RunningSandbox;
  let token: string;
  let proxy: Server;
  let proxyUrl: string;
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // The sandbox also answers to the name the proxy is asked for (its DNS-rebinding check knows it).
    sandbox = await startSandbox({ args: ["--public-url", "http://sandbox.test"] });
    token = await sandbox.token();
    const sandboxPort = Number(new URL(sandbox.origin).port);
    proxy = createServer((_req, res) => res.writeHead(502).end("this proxy only tunnels"));
    // RFC 9110 §9.3.6 CONNECT: the proxy, not the client, reaches the named host (here always the sandbox).
    proxy.on("connect", (req, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? "");
      const upstream = connect(sandboxPort, "127.0.0.1", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on("error", () => undefined).on("close", () => sockets.delete(s));
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  // The client reads the proxy variables once, on its first request after closeAllPools().
  beforeEach(() => closeAllPools());

  afterEach(async () => {
    for (const k of PROXY_VARS)
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    await closeAllPools();
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => proxy?.close(resolve));
    await sandbox?.dispose();
  });

  it("sends every request through the proxy that HTTP_PROXY names", async () => {
    process.env.HTTP_PROXY = proxyUrl;
    const port = new URL(sandbox.origin).port;
    const client = new CloudCostClient({ baseUrl: `http://sandbox.test:${port}/api/v1`, auth: { apiToken: token } });
    const group = await client.createGroup({ name: "Through the proxy" });
    expect((await client.getGroup(group.id)).name).toBe("Through the proxy");
    expect(tunnels).toContain(`sandbox.test:${port}`);
  });

  it("never sends a loopback origin (the local sandbox) through the proxy", async () => {
    process.env.HTTPS_PROXY = proxyUrl;
    process.env.HTTP_PROXY = proxyUrl;
    const before = tunnels.length;
    const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
    expect((await client.getOrganization()).id).toBeTruthy();
    expect(tunnels).toHaveLength(before);
  });
});
