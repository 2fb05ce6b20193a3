/**
 * Issue 37 §4: `cloudcost:apiUrl` (or CLOUDCOST_API_URL) pointing at a closed port, or at a server that answers
 * an HTML page, fails saying which setting points where and what answered there — through both Pulumi doors as
 * the engine drives them (the dynamic-provider host and the native plugin, real processes over gRPC).
 */
import { createServer, type Server } from "node:http";
import { type AddressInfo } from "node:net";
import {
  NATIVE_PLUGIN_ENTRY,
  nativeUrn,
  providerText,
  secret,
  startProviderHost,
  urn,
  type ProviderHost,
  type ResourceKind,
} from "@cloudcost/testkit";

type Json = Record<string, unknown>;

/** A port that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("an API URL that points at no API says so, naming the setting", () => {
  let html: Server;
  let htmlUrl: string;
  let closedUrl: string;
  beforeAll(async () => {
    html = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><p>It works"),
    );
    await new Promise<void>((resolve) => html.listen(0, "127.0.0.1", resolve));
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/api/v1`;
    closedUrl = `http://127.0.0.1:${await closedPort()}/api/v1`;
  });
  afterAll(() => new Promise((resolve) => html.close(resolve)));

  const doors: [string, boolean][] = [
    ["dynamic", true],
    ["native", false],
  ];

  describe.each(doors)("the %s door", (_door, dynamic) => {
    const urnOf = (kind: ResourceKind) => (dynamic ? urn(kind, "g") : nativeUrn(kind, "g"));
    /** Configure with the URL in config or only in the host's environment, then create a group: the error. */
    async function createError(apiUrl: string, from: "config" | "env"): Promise<string> {
      const host: ProviderHost = await startProviderHost({
        ...(dynamic ? {} : { entry: NATIVE_PLUGIN_ENTRY }),
        env: from === "env" ? { CLOUDCOST_API_URL: apiUrl } : {},
      });
      try {
        const url = from === "config" ? { [dynamic ? "cloudcost:apiUrl" : "apiUrl"]: apiUrl } : {};
        await host.configure({ ...url, [dynamic ? "cloudcost:apiToken" : "apiToken"]: secret("ccpat_not_used") });
        const news: Json = { name: "Nowhere", ...(dynamic ? { __provider: await providerText("CloudGroup") } : {}) };
        const checked = await host.check(urnOf("CloudGroup"), {}, news);
        return await host.create(urnOf("CloudGroup"), checked.inputs).then(
          () => "created",
          (e: unknown) => (e as Error).message,
        );
      } finally {
        await host.stop();
      }
    }

    it("a closed port: the setting, the URL, and that no server answered", async () => {
      const message = await createError(closedUrl, "config");
      expect(message).toContain("ECONNREFUSED");
      expect(message).toContain(`cloudcost:apiUrl is ${closedUrl}: no server answered there`);
    });

    it("an HTML page: the environment variable, the URL, and what answered", async () => {
      const message = await createError(htmlUrl, "env");
      expect(message).toContain(
        `CLOUDCOST_API_URL (cloudcost:apiUrl is not set) is ${htmlUrl}: what answered there is not the cloudcost API (a 200 text/html response`,
      );
    });
  });
});
