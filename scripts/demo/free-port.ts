import { createServer } from "node:net";

/**
 * A TCP port free right now on 127.0.0.1, for a server that must start after its URL is declared (the
 * webhook receiver of examples/alert-fires starts after `pulumi up`, with the secret the stack outputs).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
