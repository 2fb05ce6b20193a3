import { existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";
import {
  Engine,
  stripSecrets,
  outputValue,
  providerTexts,
  secret,
  startProviderHost,
  ProviderHost,
  urn,
  startSandbox,
  RunningSandbox,
} from "@cloudcost/testkit";
import { CountingProxy, startCountingProxy } from "./support/counting-proxy";
import { send } from "./support/http";
import { revokeToken, UNLIMITED } from "./support/orgs";

/** Anything shaped like one of the sandbox's credentials (API token, access/refresh token, client secret). */
const CREDENTIAL_SHAPE = /\bcc(pat|at|rt|s)_[A-Za-z0-9_-]{20,}/;
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/**
 * One run that touches every secret (API token, OAuth client secret, the access tokens issued for it,
 * a webhook URL) on success and failure paths; then every place a user or an operator can see text is
 * searched for each secret literally.
 */
describe("secrets stay out of __provider, outputs, logs and error messages", () => {
  let sb: RunningSandbox;
  let proxy: CountingProxy;
  const hosts: ProviderHost[] = [];
  const sandboxLog: string[] = [];
  const surfaces: { where: string; text: string }[] = [];
  let engine: Engine;
  const secrets: Record<string, string> = {};
  const webhookSecret = `whsec${randomUUID().replace(/-/g, "")}`;
  const webhookUrl = `https://hooks.example.com/services/${webhookSecret}`;

  const seen = (where: string, text: string) => surfaces.push({ where, text });
  const failureOf = (work: Promise<unknown>): Promise<string> =>
    work.then(
      () => "(no error)",
      (e: Error) => e.message,
    );

  async function host(config: Record<string, unknown>): Promise<ProviderHost> {
    const h = await startProviderHost();
    hosts.push(h);
    await h.configure({ "cloudcost:apiUrl": `${proxy.origin}/api/v1`, ...config });
    return h;
  }

  beforeAll(async () => {
    sb = await startSandbox({ args: UNLIMITED });
    sb.process.stdout?.on("data", (d: Buffer) => sandboxLog.push(d.toString()));
    sb.process.stderr?.on("data", (d: Buffer) => sandboxLog.push(d.toString()));
    proxy = await startCountingProxy(sb.origin, (path) => path === "/oauth/token");
    const client = await sb.client();
    secrets.clientSecret = client.client_secret;
    secrets.apiToken = await sb.token("read,write");
    secrets.webhookUrl = webhookUrl;
    secrets.webhookSecret = webhookSecret;

    // A program with all three resources, through the engine rules and the real host, authenticated with client credentials.
    const oauthConfig = {
      "cloudcost:apiUrl": `${proxy.origin}/api/v1`,
      "cloudcost:clientId": client.client_id,
      "cloudcost:clientSecret": secret(client.client_secret),
    };
    engine = new Engine({ config: oauthConfig });
    const oauthHost = (await engine.hostFor(oauthConfig)).host;
    hosts.push(oauthHost);
    await engine.open();
    const group = new CloudGroup("g", { name: `Secrets ${randomUUID().slice(0, 6)}`, awsAccountIds: ["111122223333"] });
    const alert = new BudgetAlert("a", { name: "Secret hook", amount: 100, groupId: group.id, webhookUrl });
    const report = new ScheduledReport("r", {
      name: "Weekly",
      report: "summary",
      schedule: { frequency: "weekly", dayOfWeek: "friday", time: "17:00", timezone: "UTC" },
      recipients: ["x@example.com"],
    });
    await Promise.all([outputValue(alert.id), outputValue(report.id)]);
    for (const r of engine.resources) {
      seen(`__provider of ${r.name}`, String(r.inputs.__provider));
      const { webhookUrl: _declaredSecret, ...outputs } = r.state;
      seen(`outputs of ${r.name} (except the secret webhookUrl)`, JSON.stringify(outputs));
      const read = await oauthHost.read(
        r.urn,
        r.id,
        stripSecrets(r.state) as Record<string, unknown>,
        stripSecrets(r.inputs) as Record<string, unknown>,
      );
      const { webhookUrl: _alsoSecret, ...readOutputs } = read.properties;
      seen(`read outputs of ${r.name}`, JSON.stringify(readOutputs));
      // Read gives the secret webhook back as an input too; the engine marks it secret because the stored
      // input was (provider_plugin.go Read, annotateSecrets; test/provider/engine-rules.test.ts proves it).
      const { webhookUrl: _secretInput, ...readInputs } = read.inputs ?? {};
      seen(`read inputs of ${r.name}`, JSON.stringify(readInputs));
    }
    const providers = await providerTexts();
    for (const [kind, text] of Object.entries(providers)) seen(`__provider of ${kind}`, text);

    // Failure paths: each error message a user would read.
    const badHook = await oauthHost.check(
      urn("BudgetAlert", "bad"),
      {},
      { name: "x", amount: 1, webhookUrl: `http://hooks.example.com/${webhookSecret}`, __provider: providers.BudgetAlert },
    );
    expect(badHook.failures.length).toBeGreaterThan(0);
    seen("check failure for an http webhook", JSON.stringify(badHook.failures));
    const unknownGroup = await oauthHost.check(
      urn("BudgetAlert", "orphan"),
      {},
      { name: "x", amount: 1, webhookUrl, groupId: "grp_0000000000", __provider: providers.BudgetAlert },
    );
    seen("create failure for an unknown group", await failureOf(oauthHost.create(urn("BudgetAlert", "orphan"), unknownGroup.inputs)));

    const wrongSecretHost = await host({
      "cloudcost:clientId": client.client_id,
      "cloudcost:clientSecret": secret(`${client.client_secret}x`),
    });
    // Refused credentials stop Check's dry-run (issue 38), as they would stop the create: its message is the one a user reads.
    const wrongSecret = await failureOf(
      wrongSecretHost.check(urn("CloudGroup", "w"), {}, { name: "wrong secret", __provider: providers.CloudGroup }),
    );
    expect(wrongSecret).toMatch(/invalid_client/);
    seen("check with a wrong client secret", wrongSecret);

    const tokenHost = await host({ "cloudcost:apiToken": secret(secrets.apiToken) });
    await revokeToken(sb, "demo", secrets.apiToken);
    const revoked = await failureOf(tokenHost.check(urn("CloudGroup", "rv"), {}, { name: "revoked", __provider: providers.CloudGroup }));
    expect(revoked).toMatch(/revoked/i);
    seen("check with a revoked API token", revoked);

    // The API and the token endpoint answering bad requests directly.
    const fresh = await sb.token("read,write");
    const badAlert = await send(
      sb.baseUrl,
      {
        method: "POST",
        path: "/alerts",
        body: {
          name: "x",
          amount: 1,
          currency: "USD",
          period: "monthly",
          thresholds: [{ percent: 1, basis: "actual" }],
          webhookUrl: `http://hooks.example.com/${webhookSecret}`,
        },
      },
      { token: fresh },
    );
    expect(badAlert.status).toBe(400);
    seen("API validation error for an http webhook", badAlert.text);
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: `${client.client_secret}x`,
    });
    const badToken = await fetch(`${sb.origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expect(badToken.status).toBe(401);
    seen("token endpoint error for a wrong secret", await badToken.text());

    const accessTokens = proxy.seen
      .filter((s) => s.status === 200 && s.body)
      .map((s) => (JSON.parse(s.body!) as { access_token: string }).access_token);
    expect(accessTokens.length).toBeGreaterThan(0);
    accessTokens.forEach((t, i) => (secrets[`accessToken${i}`] = t));
  });

  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.stop()));
    await proxy?.close();
    await sb?.dispose();
  });

  test("no secret appears literally in __provider, outputs, error messages, or the host's and the sandbox's logs", async () => {
    const all = [
      ...surfaces,
      ...hosts.map((h, i) => ({ where: `provider host ${i} stderr`, text: h.stderr() })),
      { where: "sandbox stdout/stderr", text: sandboxLog.join("") },
    ];
    expect(all.length).toBeGreaterThan(15);
    expect(all.filter((s) => s.text === "(no error)").map((s) => s.where)).toEqual([]);
    const leaks = all.flatMap(({ where, text }) => [
      ...Object.entries(secrets).flatMap(([name, value]) => (text.includes(value) ? [`${name} in ${where}`] : [])),
      ...(CREDENTIAL_SHAPE.test(text) ? [`a credential-shaped string in ${where}`] : []),
    ]);
    expect(leaks).toEqual([]);
  });

  test("the webhook URL is stored as a secret input and a secret output", () => {
    const alert = [...engine.state.values()].find((r) => r.type === "pulumi-nodejs:dynamic/cloudcost:BudgetAlert");
    expect(alert?.options.additionalSecretOutputs).toContain("webhookUrl");
    expect(alert?.inputs.webhookUrl).toMatchObject({ [SECRET_SIGNATURE]: expect.any(String) });
    expect(alert?.outputs.webhookUrl).toMatchObject({ [SECRET_SIGNATURE]: expect.any(String) });
  });

  test("the sandbox stores credentials only as digests", () => {
    const files = ["sandbox.db", "sandbox.db-wal"].map((f) => join(sb.dataDir, f)).filter(existsSync);
    const stored = files.map((f) => readFileSync(f).toString("latin1")).join("");
    expect(stored.length).toBeGreaterThan(0);
    const credentials = Object.entries(secrets).filter(([name]) => !name.startsWith("webhook"));
    expect(credentials.filter(([, value]) => stored.includes(value)).map(([name]) => name)).toEqual([]);
    expect(stored).not.toMatch(CREDENTIAL_SHAPE);
  });
});
