/**
 * A Terraform provider registry on 127.0.0.1 over HTTPS, serving one release folder of scripts/release.js by the
 * provider registry protocol (developer.hashicorp.com/terraform/internals/provider-registry-protocol), as OpenTofu
 * reads it (internal/getproviders/registry_client.go of v1.12):
 *
 *   GET /.well-known/terraform.json                          service discovery: {"providers.v1": "/v1/providers/"}
 *   GET /v1/providers/cloudcost/cloudcost/versions           every version with its protocols and platforms
 *   GET /v1/providers/cloudcost/cloudcost/V/download/OS/ARCH the zip's URL and shasum, SHA256SUMS and its
 *                                                            signature's URLs, and signing_keys.gpg_public_keys
 *   GET /files/NAME                                          the release's files
 *
 * What it serves is a map the test may change between requests (`files`, `signingKey`): a tampered zip, a rewritten
 * SHA256SUMS, another key. The `shasum` it answers is the one SHA256SUMS lists, as a registry that indexed the
 * release would.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { join } from "node:path";
import type { TestTls } from "./tls";

export interface SigningKey {
  keyId: string;
  armor: string;
}

export interface LocalTerraformRegistry {
  /** `127.0.0.1:PORT`, the host part of the provider's source address. */
  host: string;
  /** What /files/ serves, by file name. */
  files: Map<string, Buffer>;
  signingKey: SigningKey;
  /** Every path asked for, in order. */
  requests: string[];
  stop(): Promise<void>;
}

const NAMESPACE = "cloudcost";
const TYPE = "cloudcost";

/** Serves the provider files of RELEASE (a release folder) at VERSION, signed by SIGNINGKEY. */
export async function startTerraformRegistry(
  release: string,
  version: string,
  signingKey: SigningKey,
  tls: TestTls,
): Promise<LocalTerraformRegistry> {
  const prefix = `terraform-provider-${TYPE}_${version}_`;
  const files = new Map(
    readdirSync(release)
      .filter((f) => f.startsWith(prefix))
      .map((f) => [f, readFileSync(join(release, f))]),
  );
  const sumsName = `${prefix}SHA256SUMS`;
  const platforms = () =>
    [...files.keys()].flatMap((f) => {
      const m = new RegExp(`^${prefix}([a-z]+)_([a-z0-9]+)\\.zip$`).exec(f);
      return m ? [{ os: m[1]!, arch: m[2]! }] : [];
    });
  const shasumOf = (filename: string) =>
    files
      .get(sumsName)
      ?.toString("utf8")
      .split("\n")
      .map((line) => line.split(/\s+/))
      .find(([, name]) => name === filename)?.[0];

  const state: LocalTerraformRegistry = { host: "", files, signingKey, requests: [], stop: async () => undefined };
  const base = `/v1/providers/${NAMESPACE}/${TYPE}/`;
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const path = new URL(req.url ?? "/", "https://registry").pathname;
    state.requests.push(path);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (path === "/.well-known/terraform.json") return json(200, { "providers.v1": "/v1/providers/" });
    if (path === `${base}versions`) {
      const manifest = JSON.parse(files.get(`${prefix}manifest.json`)?.toString("utf8") ?? "{}") as {
        metadata?: { protocol_versions?: string[] };
      };
      return json(200, { versions: [{ version, protocols: manifest.metadata?.protocol_versions ?? [], platforms: platforms() }] });
    }
    const download = new RegExp(`^${base}([^/]+)/download/([^/]+)/([^/]+)$`).exec(path);
    if (download) {
      const [, v, os, arch] = download;
      const filename = `${prefix}${os}_${arch}.zip`;
      if (v !== version || !files.has(filename)) return json(404, { errors: ["Not Found"] });
      return json(200, {
        protocols: ["6.0"],
        os,
        arch,
        filename,
        download_url: `/files/${filename}`,
        shasums_url: `/files/${sumsName}`,
        shasums_signature_url: `/files/${sumsName}.sig`,
        shasum: shasumOf(filename),
        signing_keys: { gpg_public_keys: [{ key_id: state.signingKey.keyId, ascii_armor: state.signingKey.armor }] },
      });
    }
    const file = /^\/files\/([^/]+)$/.exec(path)?.[1];
    const body = file === undefined ? undefined : files.get(file);
    if (body) return void res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
    return json(404, { errors: ["Not Found"] });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the registry has no port");
  state.host = `127.0.0.1:${address.port}`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
