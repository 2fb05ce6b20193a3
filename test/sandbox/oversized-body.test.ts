import { MAX_REQUEST_BODY_BYTES, Problem } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { request } from "undici";

/**
 * Issue 24: a body over the limit gets the documented 413 problem (RFC 9110 §15.5.14), read by every kind
 * of client while it is still sending — not a broken connection (EPIPE, ECONNRESET, "fetch failed").
 * Likewise the other answers the server gives before it reads a body (431, 415, 421).
 */

/** Twice the limit: refused, yet small enough that 200 of them stay quick on loopback. */
const BODY = JSON.stringify({ name: "Oversized", description: "x".repeat(2 * MAX_REQUEST_BODY_BYTES) });
const SLICE = 64 * 1024;
/** Bounds every single exchange; a client still waiting then is a failure, not a hang. */
const EXCHANGE_MS = 30_000;

/** What one client saw: the answer, or the error it met instead (which the test reports). */
type Outcome = { status: number; contentType: string; text: string } | { error: string };

interface Target {
  url: string;
  headers: Record<string, string>;
}

/** The body in 64 KiB slices: a client sending it that way has no length to declare, so it goes chunked. */
async function* slices(): AsyncGenerator<Buffer> {
  for (let at = 0; at < BODY.length; at += SLICE) yield Buffer.from(BODY.slice(at, at + SLICE));
}

function errorOf(err: unknown): Outcome {
  const { code, cause, message } = err as { code?: string; cause?: { code?: string }; message?: string };
  return { error: String(cause?.code ?? code ?? message) };
}

async function viaFetch(target: Target, chunked: boolean): Promise<Outcome> {
  try {
    const body = chunked ? ReadableStream.from(slices()) : BODY;
    const init = { method: "POST", headers: target.headers, body, duplex: "half" as const, signal: AbortSignal.timeout(EXCHANGE_MS) };
    const r = await fetch(target.url, init);
    return { status: r.status, contentType: r.headers.get("content-type") ?? "", text: await r.text() };
  } catch (err) {
    return errorOf(err);
  }
}

async function viaUndici(target: Target, chunked: boolean): Promise<Outcome> {
  try {
    const r = await request(target.url, {
      method: "POST",
      headers: target.headers,
      body: chunked ? Readable.from(slices()) : BODY,
      signal: AbortSignal.timeout(EXCHANGE_MS),
    });
    return { status: r.statusCode, contentType: String(r.headers["content-type"] ?? ""), text: await r.body.text() };
  } catch (err) {
    return errorOf(err);
  }
}

/** curl as shipped (it sends `Expect: 100-continue` for a body this size); its exit status names a broken connection. */
function viaCurl(target: Target, chunked: boolean, bodyFile: string): Promise<Outcome> {
  const headers = Object.entries({ ...target.headers, ...(chunked ? { "transfer-encoding": "chunked" } : {}) }).flatMap(([k, v]) => [
    "--header",
    `${k}: ${v}`,
  ]);
  const args = ["--silent", "--show-error", "--max-time", String(EXCHANGE_MS / 1000), "--write-out", "\n%{http_code} %{content_type}"];
  return new Promise((resolve) => {
    execFile("curl", [...args, ...headers, "--data-binary", `@${bodyFile}`, target.url], (err, stdout, stderr) => {
      if (err) return resolve({ error: `curl exit ${String(err.code)}: ${stderr.trim()}` });
      const cut = stdout.lastIndexOf("\n");
      const [status, contentType] = stdout.slice(cut + 1).split(" ");
      resolve({ status: Number(status), contentType: contentType ?? "", text: stdout.slice(0, cut) });
    });
  });
}

/** Runs `tasks` with at most `width` in flight, keeping their order in the result. */
async function inPool<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await tasks[i]!();
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** Every outcome that is not a problem+json answer with `status` (and the same status in its body), with its client's name. */
function wrongAnswers(names: string[], outcomes: Outcome[], status: number): string[] {
  return outcomes.flatMap((o, i) => {
    if ("error" in o) return [`${names[i]}: ${o.error}`];
    const problem = Problem.safeParse(o.text ? JSON.parse(o.text) : undefined);
    const right = o.status === status && o.contentType.startsWith("application/problem+json") && problem.data?.status === status;
    return right ? [] : [`${names[i]}: ${o.status} ${o.contentType} ${o.text.slice(0, 200)}`];
  });
}

describe("answers given before the body is read reach a client that is still sending", () => {
  let sandbox: RunningSandbox;
  let token: string;
  let folder: string;
  let bodyFile: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
    folder = mkdtempSync(join(tmpdir(), "cloudcost-oversized-"));
    bodyFile = join(folder, "body.json");
    writeFileSync(bodyFile, BODY);
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await sandbox?.dispose();
  });

  const json = (extra: Record<string, string> = {}): Target => ({
    url: `${sandbox.baseUrl}/groups`,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...extra },
  });

  /** The clients, each with a body of declared length and a chunked one. */
  const clients: [string, (target: Target, chunked: boolean) => Promise<Outcome>][] = [
    ["fetch", viaFetch],
    ["undici request", viaUndici],
    ["curl", (target, chunked) => viaCurl(target, chunked, bodyFile)],
  ];
  const senders = clients.flatMap(([name, send]) =>
    [false, true].map((chunked) => ({
      name: `${name} (${chunked ? "chunked" : "Content-Length"})`,
      send: (t: Target) => send(t, chunked),
    })),
  );

  /** `count` requests spread over every sender in turn, four in flight. */
  async function sendAll(count: number, target: () => Target): Promise<{ names: string[]; outcomes: Outcome[] }> {
    const picks = Array.from({ length: count }, (_, i) => senders[i % senders.length]!);
    const outcomes = await inPool(
      picks.map((s) => () => s.send(target())),
      4,
    );
    return { names: picks.map((s) => s.name), outcomes };
  }

  it("200 POSTs of a 2 MiB body from fetch, undici and curl, with Content-Length or chunked: every one a 413 problem", async () => {
    const { names, outcomes } = await sendAll(200, () => json());
    expect(wrongAnswers(names, outcomes, 413)).toEqual([]);
    expect(outcomes).toHaveLength(200);
    // The connection the next request uses is still served.
    const after = await fetch(`${sandbox.baseUrl}/groups`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(200);
  });

  it("a body far past the limit is not read to its end: the client is stopped, and the sandbox serves on", async () => {
    const endless = 256 * MAX_REQUEST_BODY_BYTES;
    let sent = 0;
    async function* flood(): AsyncGenerator<Buffer> {
      const slice = Buffer.alloc(SLICE, "x");
      for (; sent < endless; sent += SLICE) yield slice;
    }
    const outcome = await request(`${sandbox.baseUrl}/groups`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: Readable.from(flood()),
      signal: AbortSignal.timeout(EXCHANGE_MS),
    }).then(
      async (r) => ({ status: r.statusCode, text: await r.body.text() }),
      (err: unknown) => errorOf(err),
    );
    // Either the 413 arrived or the connection was closed under the client; both stop it.
    if (!("error" in outcome)) expect(outcome.status).toBe(413);
    expect(sent).toBeLessThan(endless);
    expect((await fetch(`${sandbox.baseUrl}/groups`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("oversized headers with a 2 MiB body behind them: every one a 431 problem", async () => {
    const { names, outcomes } = await sendAll(24, () => json({ "x-padding": "a".repeat(20_000) }));
    expect(wrongAnswers(names, outcomes, 431)).toEqual([]);
  });

  it("a 2 MiB body that is not JSON: every one a 415 problem", async () => {
    const { names, outcomes } = await sendAll(24, () => json({ "content-type": "text/plain" }));
    expect(wrongAnswers(names, outcomes, 415)).toEqual([]);
  });

  it("a 2 MiB body for a host the sandbox is not: every one a 421 problem", async () => {
    // fetch may not set Host: undici's request and curl can.
    const targets = senders.filter((s) => !s.name.startsWith("fetch"));
    const outcomes = await inPool(
      targets.flatMap((s) => Array.from({ length: 4 }, () => () => s.send(json({ host: "attacker.example" })))),
      4,
    );
    expect(
      wrongAnswers(
        targets.flatMap((s) => Array(4).fill(s.name) as string[]),
        outcomes,
        421,
      ),
    ).toEqual([]);
  });
});
