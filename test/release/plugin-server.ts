/**
 * The release's download location for the native plugin, on 127.0.0.1: a plain HTTP server answering
 * `GET /releases/v<version>/<file>` from a release folder, as the GitHub release the schema's pluginDownloadURL
 * names would. The engine asks for `<pluginDownloadURL with ${VERSION} filled>/pulumi-resource-cloudcost-v<version>-<os>-<arch>.tar.gz`
 * (pulumi/pulumi sdk/go/common/workspace/plugins.go, httpSource.Download). Started before the release is built, so
 * that the release can write its URL into the schema and the SDKs.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { basename, join } from "node:path";

export interface PluginServer {
  /** The URL to pass as `--plugin-download-url`: `http://127.0.0.1:PORT/releases/v${VERSION}`. */
  downloadUrl: string;
  /** Every path asked for, in order. */
  requests: string[];
  stop(): Promise<void>;
}

/** Serves the files of the folder RELEASE (which may not exist yet). */
export async function startPluginServer(release: string): Promise<PluginServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://plugins").pathname);
    requests.push(path);
    const m = /^\/releases\/v[^/]+\/([^/]+)$/.exec(path);
    const file = m ? join(release, basename(m[1]!)) : undefined;
    if (!file || !existsSync(file)) return void res.writeHead(404).end("not found\n");
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": "application/gzip", "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the plugin server has no port");
  return {
    downloadUrl: `http://127.0.0.1:${address.port}/releases/v\${VERSION}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
