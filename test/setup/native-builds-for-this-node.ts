/**
 * A test that installs a package with a native module (the CDKTF example's `npm ci`: node-pty) must get it built
 * for the Node that runs the tests. npm builds against its `nodedir`, and `npx jest` passes the user's npmrc on
 * as npm_config_nodedir: this machine's names /usr (Node 20's headers), which gave the CDKTF example a pty.node
 * that the tests' Node 26 refused (NODE_MODULE_VERSION 115 against 147) in every run of CONTRIBUTING's flake
 * hunt. `.ci/run` names each cell's Node; this does the same for any run whose nodedir holds another Node's
 * headers: the running Node's own.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The Node version whose headers DIR holds (include/node/node_version.h), or undefined. */
function headersVersion(dir: string): string | undefined {
  const file = join(dir, "include", "node", "node_version.h");
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  const part = (name: string) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
  return `${part("MAJOR")}.${part("MINOR")}.${part("PATCH")}`;
}

const named = process.env.npm_config_nodedir ?? process.env.NPM_CONFIG_NODEDIR;
const running = dirname(dirname(process.execPath));
if ((named === undefined || headersVersion(named) !== process.versions.node) && headersVersion(running) === process.versions.node) {
  delete process.env.NPM_CONFIG_NODEDIR;
  process.env.npm_config_nodedir = running;
}
