import type { Event } from "@cloudcost/api";
import { sandboxControl, startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call, fields, reportBody } from "../sandbox/api-client";
import { fireAlert } from "../sandbox/fire-alert";
import { startRecordingReceiver, type RecordingReceiver } from "../sandbox/webhook-receiver";
import { signedInAgent } from "../oauth/support/demo-user";
import { hiddenFields, location, UserAgent } from "../oauth/support/user-agent";

interface Message {
  id: string;
  eventId: string;
  to: string;
  attachments: { filename: string; contentType: string; size: number }[];
}

/**
 * The Events and Outbox pages over plain HTTP, as an attacker or a careless visitor would use them:
 * redelivery only through a CSRF-protected form, another organization's events and attachments are
 * never shown (404, the same as an ID that does not exist), bad links are 400/404 pages, never a 500.
 */
describe("portal Events and Outbox pages", () => {
  let sb: RunningSandbox;
  let receiver: RecordingReceiver;
  let agent: UserAgent;
  let token: string;
  let otherToken: string;
  let own: Event;
  let foreign: Event;
  let foreignMessage: Message;
  let ownPdf: Message;

  beforeAll(async () => {
    receiver = await startRecordingReceiver();
    sb = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sb.token("read,write");
    agent = await signedInAgent(sb.origin);
    own = await fireAlert(sb, {
      token,
      name: "Own budget",
      accountId: "111122223333",
      webhookUrl: receiver.url,
      recipients: ["me@example.com"],
    });

    // Another organization with an event, a webhook and a captured message of its own.
    await sb.cliJson(["org", "create", "other-org", "--json"]);
    await sb.cliJson(["account", "add", "--org", "other-org", "--provider", "aws", "--id", "210987654321", "--json"]);
    otherToken = (await sb.cliJson<{ token: string }>(["token", "create", "--org", "other-org", "--json"])).token;
    foreign = await fireAlert(sb, {
      token: otherToken,
      name: "Foreign budget",
      accountId: "210987654321",
      webhookUrl: receiver.url,
      recipients: ["them@example.com"],
    });
    const outbox = (await fetch(`${sb.origin}/sandbox/v1/outbox`, { headers: { authorization: `Bearer ${otherToken}` } }).then((r) =>
      r.json(),
    )) as {
      items: Message[];
    };
    foreignMessage = outbox.items[0]!;

    await call(sb, "POST", "/reports", {
      token,
      json: reportBody({
        name: "Pages daily",
        format: "pdf",
        schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
        recipients: ["cfo@example.com"],
      }),
    });
    await sandboxControl(sb, token, "/clock", { advance: "P1D" });
    const mine = (await fetch(`${sb.origin}/sandbox/v1/outbox`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.json(),
    )) as {
      items: Message[];
    };
    ownPdf = mine.items.find((m) => m.attachments.length > 0)!;
    await receiver.waitFor((d) => d.id === own.id || d.id === foreign.id, 2);
  });
  afterAll(async () => {
    await sb?.dispose();
    await receiver?.close();
  });

  const page = async (path: string) => {
    const response = await agent.get(path);
    return { status: response.status, text: await response.text() };
  };
  const webhookAttempts = async (eventId: string, withToken = token) =>
    (
      fields(await call(sb, "GET", `/events/${eventId}/deliveries`, { token: withToken })).items as {
        channel: string;
        attempts: unknown[];
      }[]
    ).find((d) => d.channel === "webhook")?.attempts.length ?? 0;

  test("lists the organization's own events only, with a link to each", async () => {
    const list = await page("/portal/events");
    expect(list.status).toBe(200);
    expect(list.text).toContain(`<a href="/portal/events/${own.id}"><code>${own.id}</code></a>`);
    expect(list.text).toContain("Own budget");
    expect(list.text).not.toContain(foreign.id);
    expect(list.text).not.toContain("Foreign budget");
  });

  test("another organization's event, a missing one and a malformed ID are the same 404 page", async () => {
    for (const id of [foreign.id, "evt_00000000000000000000", "not-an-id", "%3Cscript%3E"]) {
      const response = await page(`/portal/events/${id}`);
      expect(response.status).toBe(404);
      expect(response.text).toContain("No such event in this organization.");
      expect(response.text).not.toContain("Foreign budget");
    }
  });

  test("Redeliver without the form's CSRF token is refused and sends nothing", async () => {
    const before = await webhookAttempts(own.id);
    const forged = await agent.post(`/portal/events/${own.id}/redeliver`, {});
    expect(forged.status).toBe(403);
    const wrong = await agent.post(`/portal/events/${own.id}/redeliver`, { _csrf: "forged-token" });
    expect(wrong.status).toBe(403);
    expect(await webhookAttempts(own.id)).toBe(before);
  });

  test("Redeliver through the form queues one more attempt and redirects back (POST/redirect/GET)", async () => {
    const before = await webhookAttempts(own.id);
    const action = `/portal/events/${own.id}/redeliver`;
    const response = await agent.post(action, hiddenFields((await page(`/portal/events/${own.id}`)).text, action));
    expect(response.status).toBe(303);
    expect(location(response)).toBe(`/portal/events/${own.id}?redelivered=1`);
    await receiver.waitFor((d) => d.id === own.id, before + 1);
  });

  test("Redeliver of another organization's event is a 404 and sends nothing", async () => {
    const before = await webhookAttempts(foreign.id, otherToken);
    const fieldsOfOwn = hiddenFields((await page(`/portal/events/${own.id}`)).text, `/portal/events/${own.id}/redeliver`);
    const response = await agent.post(`/portal/events/${foreign.id}/redeliver`, fieldsOfOwn);
    expect(response.status).toBe(404);
    expect(await webhookAttempts(foreign.id, otherToken)).toBe(before);
  });

  test("Redeliver of an event without a webhook (a report's) shows why on the event's page, with 409", async () => {
    const reportEvent = ownPdf.eventId;
    const detail = await page(`/portal/events/${reportEvent}`);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain("Redeliver webhook");
    const fieldsOfOwn = hiddenFields((await page(`/portal/events/${own.id}`)).text, `/portal/events/${own.id}/redeliver`);
    const response = await agent.post(`/portal/events/${reportEvent}/redeliver`, fieldsOfOwn);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("has no webhook to send");
  });

  test("a forged cursor is a 400 page, not an error", async () => {
    for (const path of ["/portal/events?cursor=1.AAAAAAAAAAAAAAAAAAAAAA", "/portal/outbox?cursor=zz", "/portal/events?cursor=a&cursor=b"]) {
      const response = await page(path);
      expect(response.status).toBe(400);
      expect(response.text).toContain("does not exist");
    }
  });

  test("the outbox lists the organization's messages; an attachment downloads as a file, never rendered", async () => {
    const list = await page("/portal/outbox");
    expect(list.status).toBe(200);
    expect(list.text).toContain("me@example.com");
    expect(list.text).toContain("cfo@example.com");
    expect(list.text).not.toContain("them@example.com");

    const response = await agent.get(`/portal/outbox/${ownPdf.id}/attachments/0`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="${ownPdf.attachments[0]!.filename}"; filename*=UTF-8''${encodeURIComponent(ownPdf.attachments[0]!.filename)}`,
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(ownPdf.attachments[0]!.size);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  test("another organization's attachment, a missing index and malformed links are 404 pages", async () => {
    for (const path of [
      `/portal/outbox/${foreignMessage.id}/attachments/0`,
      `/portal/outbox/${ownPdf.id}/attachments/7`,
      `/portal/outbox/${ownPdf.id}/attachments/-1`,
      `/portal/outbox/${ownPdf.id}/attachments/01`,
      "/portal/outbox/msg_nope/attachments/0",
    ]) {
      const response = await page(path);
      expect(response.status).toBe(404);
      expect(response.text).toContain("No such attachment");
    }
  });

  test("signed out, both pages and a download send the visitor to sign in", async () => {
    const stranger = new UserAgent(sb.origin);
    for (const path of ["/portal/events", `/portal/events/${own.id}`, "/portal/outbox", `/portal/outbox/${ownPdf.id}/attachments/0`]) {
      const response = await stranger.get(path);
      expect(response.status).toBe(302);
      expect(location(response)).toBe(`/portal/sign-in?${new URLSearchParams({ next: path })}`);
    }
  });
});
