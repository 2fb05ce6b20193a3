import type { Event } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { alertBody, call, fields, reportBody } from "./api-client";
import { startRecordingReceiver, verify, type RecordingReceiver } from "./webhook-receiver";

/** What `outbox list --json` prints per message. */
interface Message {
  id: string;
  eventId: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number }[];
}

const ORG = "events-cli";
const ACCOUNT = "123456789012";
const DAY_MS = 86_400_000;

/**
 * The event commands of issue 15 (`clock`, `spend`, `outbox`, `events`) on a data folder while a real
 * `serve` runs on it: what a command does is what the API then shows, and the other way round.
 */
describe("cloudcost-sandbox clock, spend, outbox and events beside a running serve", () => {
  let sb: RunningSandbox;
  let receiver: RecordingReceiver;
  let token: string;

  beforeAll(async () => {
    receiver = await startRecordingReceiver();
    sb = await startSandbox({ args: ["--rate-limit", "0", "--webhook-backoff-ms", "100"] });
    await sb.cliJson(["org", "create", ORG, "--json"]);
    await sb.cliJson(["account", "add", "--org", ORG, "--provider", "aws", "--id", ACCOUNT, "--json"]);
    token = (await sb.cliJson<{ token: string }>(["token", "create", "--org", ORG, "--scopes", "read,write", "--json"])).token;
  });
  afterAll(async () => {
    await sb?.dispose();
    await receiver?.close();
  });

  const api = (method: string, path: string, json?: unknown) => call(sb, method, path, { token, json });
  const controls = async (path: string) => {
    const response = await fetch(`${sb.origin}/sandbox/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const events = (type?: string) => sb.cliJson<Event[]>(["events", "list", "--org", ORG, "--json", ...(type ? ["--type", type] : [])]);

  test("clock show: real time until set, the same as GET /sandbox/v1/clock", async () => {
    const before = Date.now();
    const shown = await sb.cliJson<{ now: string; frozen: boolean }>(["clock", "show", "--org", ORG, "--json"]);
    expect(shown.frozen).toBe(false);
    expect(Date.parse(shown.now)).toBeGreaterThanOrEqual(before - 1000);
    const human = await sb.cli(["clock", "show", "--org", ORG]);
    expect(human).toMatchObject({ code: 0, stderr: "" });
    expect(human.stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ \\(real time\\) in organization ${ORG}\\n$`));
    expect((await controls("/clock")).body).toMatchObject({ frozen: false });
  });

  test("spend add pushes an alert over its threshold: one event, a signed webhook, one captured e-mail", async () => {
    const created = fields(
      await api(
        "POST",
        "/alerts",
        alertBody({
          name: "CLI budget",
          amount: 1_000_000,
          thresholds: [{ percent: 100, basis: "actual" }],
          webhookUrl: receiver.url,
          recipients: ["cli-owner@example.com"],
        }),
      ),
    );
    const spent = Number(created.currentSpend);
    const budget = Math.ceil(spent) + 50;
    const replaced = await api(
      "PUT",
      `/alerts/${String(created.id)}`,
      alertBody({
        name: "CLI budget",
        amount: budget,
        thresholds: [{ percent: 100, basis: "actual" }],
        webhookUrl: receiver.url,
        recipients: ["cli-owner@example.com"],
      }),
    );
    expect(replaced.status).toBe(200);
    expect(await events()).toEqual([]);

    const added = await sb.cliJson<Record<string, unknown>>([
      "spend",
      "add",
      "--org",
      ORG,
      "--account",
      ACCOUNT,
      "--service",
      "Amazon EC2",
      "--amount",
      "100",
      "--json",
    ]);
    expect(added).toMatchObject({ provider: "aws", accountId: ACCOUNT, service: "Amazon EC2", amount: 100, currency: "USD" });
    const human = await sb.cli(["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "Amazon S3", "--amount", "0.5"]);
    expect(human.stdout).toMatch(new RegExp(`^added 0\\.50 USD of Amazon S3 to aws account ${ACCOUNT} on \\d{4}-\\d\\d-\\d\\d\\n$`));
    expect(Number(fields(await api("GET", `/alerts/${String(created.id)}`)).currentSpend)).toBeCloseTo(spent + 100.5, 2);

    // The webhook arrives (the serve process delivers it), signed with the organization's secret.
    const [hook] = await receiver.waitFor((d) => d.body.includes(String(created.id)));
    const { secret } = fields(await api("GET", "/webhooks/signing-secret")) as { secret: string };
    const event = verify(secret, hook!) as Event;
    expect(event).toMatchObject({
      type: "budget_alert.threshold_crossed",
      data: { alertId: created.id, amount: budget, threshold: { percent: 100, basis: "actual" } },
    });
    expect(hook!.id).toBe(event.id);
    expect(hook!.body).toBe((await api("GET", `/events/${event.id}`)).text);

    // The CLI lists exactly what the API lists.
    const listed = await events();
    expect(listed).toEqual([event]);
    expect(listed).toEqual(fields(await api("GET", "/events")).items);
    const line = (await sb.cli(["events", "list", "--org", ORG])).stdout;
    expect(line).toContain(`${event.id}  ${event.createdAt}  budget_alert.threshold_crossed  "CLI budget" 100% actual`);
    expect(await sb.cliJson<Event[]>(["events", "list", "--org", "demo", "--json"])).not.toContainEqual(event);

    const outbox = await sb.cliJson<Message[]>(["outbox", "list", "--org", ORG, "--json"]);
    expect(outbox).toEqual([expect.objectContaining({ eventId: event.id, to: "cli-owner@example.com", attachments: [] })]);
    expect(outbox).toEqual((await controls("/outbox")).body.items);
    expect((await sb.cli(["outbox", "list", "--org", ORG])).stdout).toMatch(
      new RegExp(`^msg_\\w+  \\S+  to cli-owner@example.com  ".+"  event ${event.id}\\n$`),
    );

    // More spend in the same period makes no second event.
    await sb.cliJson(["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "Amazon EC2", "--amount", "500", "--json"]);
    await sb.cliJson(["clock", "advance", "PT1M", "--org", ORG, "--json"]); // evaluation runs before it returns
    expect((await events("budget_alert.threshold_crossed")).map((e) => e.id)).toEqual([event.id]);
  });

  test("clock advance runs the reports due by then before it returns; serve and the API see the new time", async () => {
    const report = fields(
      await api(
        "POST",
        "/reports",
        reportBody({
          name: "CLI daily",
          report: "services",
          format: "csv",
          schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
          recipients: ["reports@example.com"],
        }),
      ),
    );
    const from = new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000).toISOString();
    const start = await sb.cliJson<{ now: string; frozen: boolean }>(["clock", "set", from, "--org", ORG, "--json"]);
    expect(start).toEqual({ now: from, frozen: true });
    const moved = await sb.cliJson<{ now: string; frozen: boolean }>(["clock", "advance", "P2D", "--org", ORG, "--json"]);
    expect(moved.frozen).toBe(true);
    expect(Date.parse(moved.now) - Date.parse(start.now)).toBe(2 * DAY_MS);
    expect((await controls("/clock")).body).toEqual(moved);

    // No waiting: the command returned after the runs it made due.
    const delivered = (await events("scheduled_report.delivered")).filter(
      (e) => e.type === "scheduled_report.delivered" && e.data.reportId === report.id,
    );
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    const outbox = await sb.cliJson<Message[]>(["outbox", "list", "--org", ORG, "--json"]);
    const mail = outbox.find((m) => m.eventId === delivered[0]!.id)!;
    expect(mail).toMatchObject({
      to: "reports@example.com",
      attachments: [{ contentType: expect.stringMatching(/^text\/csv/), filename: expect.stringMatching(/\.csv$/) }],
    });
    expect((await sb.cli(["outbox", "list", "--org", ORG, "--limit", "1"])).stdout).toMatch(
      /older ones left out: at most 1 are listed; raise --limit/,
    );

    const set = await sb.cli(["clock", "set", new Date(Date.parse(moved.now) + DAY_MS).toISOString(), "--org", ORG]);
    expect(set).toMatchObject({ code: 0, stderr: "" });
    expect(set.stdout).toMatch(/^clock set: \S+ \(set: frozen until moved again\) in organization events-cli\n$/);
    const back = await sb.cli(["clock", "set", start.now, "--org", ORG]);
    expect(back.code).toBe(1);
    expect(back.stderr).toMatch(/^error: .*only moves forward/);
    expect((await sb.cliJson<{ now: string }>(["clock", "show", "--org", ORG, "--json"])).now).toBe(
      new Date(Date.parse(moved.now) + DAY_MS).toISOString(),
    );
    // Other organizations keep real time.
    expect((await sb.cliJson<{ frozen: boolean }>(["clock", "show", "--org", "demo", "--json"])).frozen).toBe(false);
  });

  it.each([
    [
      ["clock", "set", "yesterday", "--org", ORG],
      /^error: TIME must be an ISO 8601 date-time with a time zone, e\.g\. 2026-12-01T00:00:00Z; got "yesterday"/,
    ],
    [["clock", "set", "2026-12-01T00:00:00", "--org", ORG], /TIME must be an ISO 8601 date-time with a time zone/],
    [["clock", "advance", "P0D", "--org", ORG], /^error: DURATION must be a positive ISO 8601 duration, e\.g\. P8D, PT1H, P1M; got "P0D"/],
    [["clock", "advance", "8 days", "--org", ORG], /DURATION must be a positive ISO 8601 duration/],
    [["clock", "advance", "P1D"], /required option '--org <name>' not specified/],
    [["clock", "show"], /required option '--org <name>' not specified/],
    [["clock", "turn", "--org", ORG], /unknown command 'turn'/],
    [
      ["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "EC2", "--amount", "-5"],
      /--amount must be a decimal number such as 150 or 99\.95; got "-5"/,
    ],
    [["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "EC2", "--amount", "1e3"], /--amount must be a decimal number/],
    [
      ["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "EC2", "--amount", "0"],
      /--amount must be greater than 0 \(spend cannot be taken back\); got "0"/,
    ],
    [
      ["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "EC2", "--amount", "1.005"],
      /--amount must have at most two decimal places; got "1.005"/,
    ],
    [["spend", "add", "--org", ORG, "--account", "12", "--service", "EC2", "--amount", "5"], /--account must be a .*; got "12"/],
    [["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "  ", "--amount", "5"], /--service .*; got " {2}"/],
    [["spend", "add", "--org", ORG, "--account", ACCOUNT, "--amount", "5"], /required option '--service <name>' not specified/],
    [
      ["events", "list", "--org", ORG, "--type", "alert"],
      /Allowed choices are budget_alert\.threshold_crossed, scheduled_report\.delivered/,
    ],
    [["events", "list", "--org", ORG, "--limit", "0"], /--limit must be a whole number from 1 to 10000, got "0"/],
    [["outbox", "list", "--org", ORG, "--limit", "many"], /--limit must be a whole number from 1 to 10000, got "many"/],
  ])("rejects %j with a usage error stating the rule, exit code 2", async (args, message) => {
    const r = await sb.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it.each([
    [["clock", "show", "--org", "nobody"], /no organization named "nobody"/],
    [["events", "list", "--org", "nobody"], /no organization named "nobody"/],
    [["spend", "add", "--org", ORG, "--account", "999999999999", "--service", "EC2", "--amount", "5"], /999999999999/],
    // Issue 33 item 7: spend only on a service the cost data names, of the account's provider.
    [
      ["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "AmazonEC2", "--amount", "5"],
      /^error: "AmazonEC2" is not a service the cost data names; did you mean "Amazon EC2"\?\n$/,
    ],
    [
      ["spend", "add", "--org", ORG, "--account", ACCOUNT, "--service", "Virtual Machines", "--amount", "5"],
      /"Virtual Machines" is an Azure service, and \d{12} is an AWS account \(its services: Amazon EC2, /,
    ],
  ])("fails %j with exit code 1 and a clear message, changing nothing", async (args, message) => {
    const before = await sb.cliJson<{ now: string }>(["clock", "show", "--org", ORG, "--json"]);
    const r = await sb.cli(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    expect(await sb.cliJson<{ now: string }>(["clock", "show", "--org", ORG, "--json"])).toEqual(before);
  });

  it.each([[["clock"]], [["clock", "advance"]], [["spend", "add"]], [["outbox", "list"]], [["events", "list"]]])(
    "prints help for %j --help",
    async (args) => {
      const r = await sb.cli([...args, "--help"]);
      expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(r.stdout).toMatch(new RegExp(`^Usage: cloudcost-sandbox ${args.join(" ")}`));
    },
  );
});
