import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for HashiCorp Vault's transit engine on 127.0.0.1: the key service behind the harness stacks' secrets
 * provider (`hashivault://KEY`, Pulumi's cloud secrets manager on gocloud.dev/secrets/hashivault).
 *
 * Why not the passphrase provider every stack once had: it derives its key with 1,000,000 rounds of PBKDF2-SHA256
 * (sdk/go/common/resource/config/crypt.go, NewSymmetricCrypterFromPassphrase) in every `pulumi` process that loads a
 * stack's secrets manager. Measured with the pinned CLI on a 2-core CI machine: `preview` 0.48 → 0.26 CPU s, `up`
 * 0.56 → 0.37, `destroy` 0.45 → 0.27, `stack init` 0.34 → 0.15 (an empty program), and the tests run thousands of
 * commands (issue 39). With a cloud secrets manager the CLI wraps a random data key once (`stack init`) and unwraps it
 * with one request per command; the engine encrypts the state's and config's secrets with that data key exactly as
 * before. The passphrase workflow stays proven where users meet it: the demo (scripts/demo) and the suites that ask for
 * it (`PulumiWorkspace`'s `secretsProvider: "passphrase"`).
 *
 * The two routes the driver calls (developer.hashicorp.com/vault/api-docs/secret/transit): `encrypt/:name` takes
 * `{plaintext: base64}` and answers `{data: {ciphertext: "vault:v1:…"}}`; `decrypt/:name` the reverse. Each key name's
 * key is derived from the name, so a stack's wrapped key stays readable by any later process of the run.
 */
export interface VaultTransit {
  /** `VAULT_SERVER_URL` and `VAULT_SERVER_TOKEN` for the CLI. */
  env: { VAULT_SERVER_URL: string; VAULT_SERVER_TOKEN: string };
  close(): void;
}

const TOKEN = "cloudcost-test-vault-token";
const PREFIX = "vault:v1:";

function keyOf(name: string): Buffer {
  return createHash("sha256").update(`cloudcost-test-vault:${name}`).digest();
}

function encrypt(name: string, plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(name), iv);
  const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return PREFIX + sealed.toString("base64");
}

function decrypt(name: string, ciphertext: string): Buffer {
  if (!ciphertext.startsWith(PREFIX)) throw new Error("invalid ciphertext: no prefix");
  const sealed = Buffer.from(ciphertext.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", keyOf(name), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
}

/** Vault's error shape: `{errors: [message]}`. */
function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const route = /^\/v1\/transit\/(encrypt|decrypt)\/([\w.-]+)$/.exec(req.url ?? "");
  if (req.headers["x-vault-token"] !== TOKEN) return reply(res, 403, { errors: ["permission denied"] });
  if (!route || (req.method !== "PUT" && req.method !== "POST")) return reply(res, 404, { errors: [] });
  const [, operation, name] = route as unknown as [string, "encrypt" | "decrypt", string];
  try {
    const input = JSON.parse(body) as { plaintext?: string; ciphertext?: string };
    const data =
      operation === "encrypt"
        ? { ciphertext: encrypt(name, Buffer.from(input.plaintext ?? "", "base64")) }
        : { plaintext: decrypt(name, input.ciphertext ?? "").toString("base64") };
    reply(res, 200, { data });
  } catch (err) {
    reply(res, 400, { errors: [(err as Error).message] });
  }
}

/** Starts a stand-in on a free port of 127.0.0.1; any stand-in unwraps what another wrapped (the key is the name's). */
export function startVaultTransit(): Promise<VaultTransit> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handle(req, res, body));
  });
  // It never keeps the process alive: a workspace its user forgot to dispose leaves it listening, not waiting.
  server.unref();
  return new Promise<VaultTransit>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const env = { VAULT_SERVER_URL: `http://127.0.0.1:${port}`, VAULT_SERVER_TOKEN: TOKEN };
      resolve({ env, close: () => server.close() });
    }),
  );
}
