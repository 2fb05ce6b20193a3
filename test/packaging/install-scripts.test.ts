/**
 * Issue 34 item 10: `npm ci` in a fresh clone ends without "install scripts not yet covered by allowScripts": every
 * installed dependency with an install script has a decision in the root package.json's `allowScripts` (npm 11
 * skips, and lists at the end of each install, the scripts of packages it has no decision for).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

const REPO = join(__dirname, "..", "..");

test("every dependency with an install script has an allowScripts decision (npm install-scripts ls)", async () => {
  const { stdout } = await promisify(execFile)("npm", ["install-scripts", "ls", "--json"], { cwd: REPO, timeout: START_TIMEOUT_MS });
  const { allowScripts } = JSON.parse(stdout) as { allowScripts: { name: string }[] };
  expect(allowScripts.map((p) => p.name)).toEqual([]);
});
