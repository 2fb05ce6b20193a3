import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { readyLine, stopChild } from "@cloudcost/testkit";

const PRISM_CLI = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");

export interface PrismProxy {
  /** Where to send requests: paths as in the document (the proxy forwards them below `upstream`). */
  url: string;
  stop(): Promise<void>;
}

/** A free loopback port: Prism needs a number and does not report the one it got for 0. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Stoplight Prism's validating proxy (`prism proxy DOC UPSTREAM --errors=false`) in front of one server
 * base: it forwards every request and reports request- and response-side violations of the document in
 * the `sl-violations` header. It matches paths without the document's `servers`, so each base needs a proxy.
 */
export async function startPrism(documentPath: string, upstream: string): Promise<PrismProxy> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM_CLI, "proxy", documentPath, upstream, "--errors=false", "--host", "127.0.0.1", "--port", String(port)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  await readyLine(
    child,
    "prism",
    (line) => (line.includes("Prism is listening") ? true : undefined),
    () => stderr,
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

export interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** The violations Prism found in one exchange. */
export function violations(headers: Headers): Violation[] {
  const raw = headers.get("sl-violations");
  return raw ? (JSON.parse(raw) as Violation[]) : [];
}
