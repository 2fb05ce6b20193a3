/**
 * Issue 34 item 9: sentences of the READMEs and the docs pages that state what the code does, held to the code
 * (issue 41 moved the root README's long sections to docs/: each check reads the page that now holds its claim). (Numbers measured by
 * a test sit beside that test: provider/README's `__provider` size in test/provider/serialized-provider.test.ts;
 * refresh and destroy with the configuration of the last `up` in test/engine/engine-rules.test.ts.)
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const REPO = resolve(__dirname, "..", "..");
const read = (file: string): string => readFileSync(join(REPO, file), "utf8");
// Plain JavaScript, required by path as the demo requires it; loading it builds nothing.
const { PULUMI_EXECUTABLES } = require(join(REPO, "scripts", "pulumi-cli.js")) as { PULUMI_EXECUTABLES: string[] };

test("docs/guide/getting-started.md's 'That folder holds' names every executable scripts/pulumi-cli.js puts into the CLI's bin folder", () => {
  const paragraph = /^That folder holds [\s\S]*?\n\n/m.exec(read("docs/guide/getting-started.md"))?.[0] ?? "";
  expect(PULUMI_EXECUTABLES.length).toBeGreaterThan(5);
  for (const name of PULUMI_EXECUTABLES) expect([name, paragraph.includes(`\`${name}\``)]).toEqual([name, true]);
});

test("scripts/pulumi-cli/README.md's table lists exactly those executables", () => {
  const rows = [...read("scripts/pulumi-cli/README.md").matchAll(/^\| `(pulumi[\w-]*)`\s+\|/gm)].map((m) => m[1]);
  expect(rows.sort()).toEqual([...PULUMI_EXECUTABLES].sort());
});

test("docs/reference/troubleshooting.md says refresh and destroy use the configuration of the last `up`, not the current config", () => {
  const troubleshooting = read("docs/reference/troubleshooting.md");
  expect(troubleshooting).toMatch(/`pulumi refresh` and `pulumi destroy` do not read the stack's current config/);
  expect(troubleshooting).not.toMatch(/settings come from the stack's\s+current config/);
});

type DoorName = "native" | "dynamic" | "tofu";
/** What the README quotes of one size of area `doors` (per command and door: its requests and answers 429). */
type DoorsSize = Record<"up" | "plan" | "refresh" | "destroy", Record<DoorName, { httpRequests: number; answered429: number }>> & {
  stateBytesPerResource: Record<DoorName, number>;
};

test("docs/concepts/benchmarks.md's table quotes bench/results.json's figures", () => {
  const results = JSON.parse(read("bench/results.json")) as {
    areas: {
      refresh: { httpRequests: number; seconds: number };
      rateLimited: { wallVsIdeal: number };
      provider: { inProcess: { ratioToFloor: Record<"create" | "read" | "delete", number> } };
      sandbox: { list: { ratioToSameQuery: number }; create: { ratioToSameInsert: number } };
      policies: { analyze: { msPerResource: number } };
      doors: Record<"rateLimitOff" | "rateLimitOn", { n1000: DoorsSize }>;
    };
  };
  const section = read("docs/concepts/benchmarks.md");
  const { refresh, rateLimited, provider, sandbox, policies, doors } = results.areas;
  const n1000 = doors.rateLimitOff.n1000;
  const limited = doors.rateLimitOn.n1000;
  const doorNames: DoorName[] = ["native", "dynamic", "tofu"];
  const answered429 = (["up", "plan", "refresh", "destroy"] as const)
    .flatMap((command) => doorNames.map((door) => limited[command][door].answered429))
    .reduce((a, b) => a + b, 0);
  const thousands = (x: number): string => x.toLocaleString("en-US");
  const inProcess = provider.inProcess.ratioToFloor;
  for (const quoted of [
    `${refresh.httpRequests} HTTP requests`,
    `, ${refresh.seconds} s (target`,
    `wall time ${rateLimited.wallVsIdeal} of the ideal`,
    `create ${inProcess.create}, read ${inProcess.read}, delete ${inProcess.delete}`,
    `${sandbox.list.ratioToSameQuery} / ${sandbox.create.ratioToSameInsert} (target 0.5`,
    `Analyze ${policies.analyze.msPerResource} ms per resource`,
    `refresh ${n1000.refresh.native.httpRequests} / ${n1000.refresh.dynamic.httpRequests} / ${n1000.refresh.tofu.httpRequests} requests`,
    `tofu \`plan\` ${n1000.plan.tofu.httpRequests} (was 1,000`,
    `destroy ${thousands(n1000.destroy.native.httpRequests)} / ${thousands(n1000.destroy.dynamic.httpRequests)} / ${thousands(n1000.destroy.tofu.httpRequests)} (was 2N`,
    `${answered429} answers 429 with the limit on`,
    `(${thousands(limited.up.native.httpRequests)} / ${thousands(limited.up.dynamic.httpRequests)} / ${thousands(limited.up.tofu.httpRequests)} requests`,
    `state ${thousands(n1000.stateBytesPerResource.native)} / ${thousands(n1000.stateBytesPerResource.dynamic)} / ${thousands(n1000.stateBytesPerResource.tofu)} B/resource`,
  ])
    expect([quoted, section.includes(quoted)]).toEqual([quoted, true]);
});
