/**
 * The request log of the Pulumi doors through the REAL Pulumi CLI (issue 38, "Logs"): at `--logtostderr -v=9`
 * every request the service received during a `pulumi up` and a `pulumi destroy` — token requests included —
 * is one `cloudcost API request` line of the engine's log, with its method, path, status, request id, attempt,
 * retry and replay; and nothing the run printed, nor `pulumi stack export`, holds a secret it handled: the API
 * token, the OAuth client secret and the access tokens issued for it, the webhook URLs, the signing secret.
 * One stack per door: the dynamic provider with an API token, the native plugin with client credentials.
 * Requests are counted by a loopback proxy in front of the sandbox, not by the client.
 */
import { join } from "node:path";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import {
  PulumiWorkspace,
  startSandbox,
  type ConfigValue,
  type PulumiResult,
  type PulumiStack,
  type RunningSandbox,
} from "@cloudcost/testkit";
import { startCountingProxy, type CountingProxy, type Seen } from "../proof/support/counting-proxy";
import { copyProgram, FIXTURES, REPO } from "./support";

/** The flags the troubleshooting docs give: the engine's own log, on stderr, at its most verbose. */
const LOG_FLAGS = ["--logtostderr", "-v=9"];
const ALERT_HOOK = "https://hooks.example.com/alert-7f3a9c-never-logged";
const REPORT_HOOK = "https://hooks.example.com/report-2b8e1d-never-logged";

let sandbox: RunningSandbox;
let proxy: CountingProxy;
let workspace: PulumiWorkspace;
let token: string;
let signingSecret: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  // The token endpoint's answers are kept: the access tokens the native plugin was issued are secrets too.
  proxy = await startCountingProxy(sandbox.origin, (path) => path === "/oauth/token");
  token = await sandbox.token("read,write");
  const api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  signingSecret = (await api.getWebhookSigningSecret()).secret;
  workspace = new PulumiWorkspace();
});

afterAll(async () => {
  workspace?.dispose();
  await proxy?.close();
  await sandbox?.dispose();
  await closeAllPools();
});

/** The fields of each `cloudcost API request` line of the engine's log (`key=value` pairs). */
function requestLines(output: string): Record<string, string>[] {
  const lines: Record<string, string>[] = [];
  for (const line of output.split("\n")) {
    // `--logtostderr` writes one JSON object per line; the message is the provider's line as sent. The sink
    // writes each debug message a second time at -v=9, quoted inside `eventSink::Debug(…)`: not counted.
    if (!line.startsWith("{")) continue;
    const { msg } = JSON.parse(line) as { msg?: string };
    if (!msg?.startsWith("cloudcost API request: ")) continue;
    const pairs = msg.slice("cloudcost API request: ".length).split(" ");
    lines.push(Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)])));
  }
  return lines;
}

/** Requests by `METHOD path status`, as the proxy saw them or as the log tells them. */
function tally(requests: { method: string; path: string; status: string | number }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requests) {
    const key = `${r.method} ${r.path} ${r.status}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/**
 * Runs a command of the stack with the log flags and checks its log against what the proxy saw meanwhile;
 * returns everything it printed.
 */
async function logged(what: string, run: () => Promise<PulumiResult>): Promise<string> {
  const mark = proxy.seen.length;
  const result = await run();
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.code !== 0) throw new Error(`${what} failed:\n${result.stdout}\n${result.stderr.slice(-4000)}`);
  const seen: Seen[] = proxy.since(mark);
  const lines = requestLines(output);
  for (const line of lines)
    for (const field of ["method", "path", "status", "request_id", "attempt", "retry", "replay"])
      expect([what, field, line[field] !== undefined]).toEqual([what, field, true]);
  expect(seen.length).toBeGreaterThan(0);
  // Debug severity: the display of a run without --debug shows none of it.
  expect([what, result.stdout.includes("cloudcost API request")]).toEqual([what, false]);
  expect([what, tally(lines.map((l) => ({ method: l.method!, path: l.path!, status: l.status! })))]).toEqual([what, tally(seen)]);
  return output;
}

/** `pulumi preview --debug`: the display shows the lines (as `debug:` messages), one per request. */
async function withDebug(stack: PulumiStack): Promise<string> {
  const mark = proxy.seen.length;
  const result = await stack.run(["preview", "--debug"]);
  expect([result.code, result.stderr]).toEqual([0, ""]);
  const shown = result.stdout.split("\n").filter((line) => /^\s*debug: cloudcost API request: /.test(line));
  expect(proxy.since(mark).length).toBeGreaterThan(0);
  expect(shown).toHaveLength(proxy.since(mark).length);
  return result.stdout;
}

/** `pulumi up` and `pulumi destroy` of the stack, each logged; every secret is looked for in all they printed and in the state. */
async function upAndDestroy(stack: PulumiStack, secrets: Record<string, string>): Promise<void> {
  const printed = [await logged("pulumi up", () => stack.up(LOG_FLAGS))];
  printed.push(JSON.stringify(await stack.exportState()));
  printed.push(await withDebug(stack));
  // The run did handle them: the state holds them, encrypted.
  const decrypted = JSON.stringify(await stack.exportState({ showSecrets: true }));
  for (const handled of [ALERT_HOOK, REPORT_HOOK, signingSecret]) expect(decrypted).toContain(handled);
  printed.push(await logged("pulumi destroy", () => stack.destroy(LOG_FLAGS)));
  // Issued by the token endpoint during the run, so known only now.
  proxy.seen
    .filter((s) => s.body !== undefined)
    .forEach((s, i) => (secrets[`access token ${i + 1}`] = (JSON.parse(s.body!) as { access_token: string }).access_token));
  const all = printed.join("\n");
  for (const [what, secret] of Object.entries(secrets)) expect([what, all.includes(secret)]).toEqual([what, false]);
}

const HOOKS: ConfigValue[] = [
  { key: "alertHook", value: ALERT_HOOK, secret: true },
  { key: "reportHook", value: REPORT_HOOK, secret: true },
];

test("the dynamic door (API token): every request is one debug line of the engine's log, and no secret is printed or stored", async () => {
  const stack = await workspace.initStack("dynamic", copyProgram(join(FIXTURES, "request-log")), [
    { key: "cloudcost:apiUrl", value: `${proxy.origin}/api/v1` },
    { key: "cloudcost:apiToken", value: token, secret: true },
    ...HOOKS.map((h) => ({ ...h, key: `cloudcost-engine-request-log:${h.key}` })),
  ]);
  await upAndDestroy(stack, {
    "API token": token,
    "alert webhook URL": ALERT_HOOK,
    "report webhook URL": REPORT_HOOK,
    "signing secret": signingSecret,
  });
});

test("the native plugin (client credentials): every request is one debug line of the engine's log, and no secret is printed or stored", async () => {
  const client = await sandbox.client("read,write");
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-native-log-"));
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    `name: native-request-log
runtime: yaml
plugins:
  providers:
    - name: cloudcost
      path: ${join(REPO, "native", "bin")}
config:
  alertHook: { type: string, secret: true }
  reportHook: { type: string, secret: true }
resources:
  logged:
    type: cloudcost:index:BudgetAlert
    properties:
      name: Logged budget
      amount: 100
      thresholds: [{ percent: 80, basis: actual }]
      webhookUrl: \${alertHook}
  report:
    type: cloudcost:index:ScheduledReport
    properties:
      name: Logged report
      report: services
      schedule: { frequency: daily, time: "06:00", timezone: UTC }
      recipients: ["finops@example.com"]
      webhookUrl: \${reportHook}
variables:
  signing:
    fn::invoke:
      function: cloudcost:index:getWebhookSigningSecret
      arguments: {}
outputs:
  alertId: \${logged.id}
  signingSecret: \${signing.secret}
`,
  );
  const stack = await workspace.initStack("native", dir, [
    { key: "cloudcost:apiUrl", value: `${proxy.origin}/api/v1` },
    { key: "cloudcost:clientId", value: client.client_id },
    { key: "cloudcost:clientSecret", value: client.client_secret, secret: true },
    ...HOOKS,
  ]);
  await upAndDestroy(stack, {
    "client secret": client.client_secret,
    "alert webhook URL": ALERT_HOOK,
    "report webhook URL": REPORT_HOOK,
    "signing secret": signingSecret,
  });
});
