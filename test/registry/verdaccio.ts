/**
 * A real npm registry for the install test: Verdaccio on 127.0.0.1, its storage in a temporary folder.
 * Third-party packages are proxied from the registry npm itself uses (`npm config get registry`, read at
 * run time — no registry host is written into the repository); `@cloudcost/*` is never proxied, so only
 * what the test publishes can be installed under that scope.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readyLine, START_TIMEOUT_MS, stopChild } from "@cloudcost/testkit";

export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  /** An npm user config naming the registry and a publish token (pass as `npm_config_userconfig`). */
  userconfig: string;
  /** Everything Verdaccio wrote, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts Verdaccio with storage under `root`; it listens on a free port it picks itself (`--listen 127.0.0.1:0` is not supported, so port 0 is asked of the OS first). */
export async function startRegistry(root: string): Promise<LocalRegistry> {
  const uplink = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8", timeout: START_TIMEOUT_MS }).trim();
  mkdirSync(root, { recursive: true });
  const config = join(root, "verdaccio.yaml");
  writeFileSync(
    config,
    [
      `storage: ${join(root, "storage")}`,
      `auth:\n  htpasswd:\n    file: ${join(root, "htpasswd")}\n    max_users: 10`,
      `uplinks:\n  upstream:\n    url: ${uplink}\n    timeout: 120s\n    maxage: 30m`,
      "packages:",
      "  '@cloudcost/*':\n    access: $all\n    publish: $authenticated",
      "  '**':\n    access: $all\n    publish: $authenticated\n    proxy: upstream",
      "max_body_size: 300mb",
      "log: { type: stdout, format: pretty, level: http }",
      "",
    ].join("\n"),
  );
  const port = await freePort();
  // The package's exports map hides its bin script; it sits beside package.json.
  const verdaccio = join(dirname(require.resolve("verdaccio/package.json")), "bin", "verdaccio");
  const child: ChildProcess = spawn(process.execPath, [verdaccio, "--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  // Verdaccio logs "http address - http://127.0.0.1:PORT/ - verdaccio/…" once it listens.
  await readyLine(
    child,
    "verdaccio",
    (line) => (line.includes(`127.0.0.1:${port}`) ? true : undefined),
    () => output,
  );
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}/`;
  try {
    const userconfig = join(root, "npmrc");
    writeFileSync(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${await addUser(url)}\n`);
    return { url, userconfig, log: () => output, stop: () => stopChild(child) };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

/** Verdaccio's CouchDB-style sign-up (`npm adduser` does the same request) answers a token. */
async function addUser(url: string): Promise<string> {
  const password = `ci-${process.pid}-${Date.now()}`;
  const response = await fetch(`${url}-/user/org.couchdb.user:ci`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "ci", password }),
  });
  const body = (await response.json()) as { token?: string };
  if (!body.token) throw new Error(`adding a user to verdaccio answered ${response.status}: ${JSON.stringify(body)}`);
  return body.token;
}

/** A port no one listens on now, from the OS. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
