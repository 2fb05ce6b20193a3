/**
 * A certificate authority of the test's own and a server certificate it issued for 127.0.0.1, made with the
 * `openssl` command: the Terraform provider registry protocol is HTTPS only, and OpenTofu (Go's crypto/x509 on
 * Linux) trusts the CA named by SSL_CERT_FILE, so nothing is added to the machine's trust store.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

export interface TestTls {
  /** The CA's certificate (PEM): pass as SSL_CERT_FILE. */
  caFile: string;
  key: Buffer;
  cert: Buffer;
}

/** Writes the CA and the server's key and certificate (valid a day, for IP 127.0.0.1 and DNS localhost) into DIR. */
export function testTls(dir: string): TestTls {
  const openssl = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe", timeout: START_TIMEOUT_MS });
  const days = ["-days", "1"];
  openssl([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    ...days,
    "-subj",
    "/CN=cloudcost release test CA",
  ]);
  openssl([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "server.key",
    "-out",
    "server.csr",
    "-subj",
    "/CN=127.0.0.1",
  ]);
  writeFileSync(join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  openssl([
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    ...days,
    "-extfile",
    "server.ext",
  ]);
  return { caFile: join(dir, "ca.pem"), key: readFileSync(join(dir, "server.key")), cert: readFileSync(join(dir, "server.pem")) };
}
