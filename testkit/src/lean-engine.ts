/**
 * A lean engine stand-in for the provider benchmark: the Pulumi engine's Check/Create/Read/Delete calls to
 * a dynamic-provider host, sent as unary gRPC over plain `node:http2` (framing per gRPC's
 * PROTOCOL-HTTP2.md: a 5-byte length prefix, status in the trailers) with the state kept as protobuf bytes.
 *
 * Why not the grpc-js client of provider-host.ts: the real engine is a Go process whose cost per call is
 * small next to the host's; a grpc-js client decoding every Struct costs this machine about as much CPU
 * as the host itself, and on two shared cores that CPU is taken from the host and the API under test.
 * Like the engine, this stand-in passes Check's inputs to Create and the stored state to Read and Delete
 * without looking inside them: the protobuf fields are copied as bytes (protobufjs's wire reader/writer).
 * The field numbers are not written here: each is read once, at load, from what the SDK's generated
 * encoder (`@pulumi/pulumi/proto/provider_pb`, google-protobuf) writes for a message with that one field set.
 *
 *   const engine = await leanEngine(host.address);
 *   const inputs = await engine.check(u, { ...inputs, __provider });
 *   const { id, properties } = await engine.create(u, inputs);
 *   await engine.read(u, id, properties); await engine.delete(u, id, properties);
 *   engine.close();
 */
import { connect, type ClientHttp2Session } from "node:http2";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { Reader, Writer } from "protobufjs/minimal";

type Json = Record<string, unknown>;
/** The top-level length-delimited fields of a protobuf message, by field number. */
type Fields = Record<number, Buffer>;

/** Resource state as the engine stores it: the encoded `google.protobuf.Struct`. */
export type EncodedState = Buffer;

export interface LeanEngine {
  /** Check with empty olds; the checked inputs, or an error listing the check failures. */
  check(urn: string, news: Json): Promise<EncodedState>;
  create(urn: string, inputs: EncodedState): Promise<{ id: string; properties: EncodedState }>;
  /** The id the host answered ("" when the object is gone). */
  read(urn: string, id: string, properties: EncodedState): Promise<string>;
  delete(urn: string, id: string, properties: EncodedState): Promise<void>;
  close(): void;
}

const SERVICE = "/pulumirpc.ResourceProvider";
const LENGTH_DELIMITED = 2;

/**
 * The number of the one field set in `message`, as the SDK's generated encoder writes it. Every field the
 * stand-in touches is length-delimited (a string or an embedded message, written even when empty).
 */
function fieldNumber(message: { serializeBinary(): Uint8Array }): number {
  const reader = Reader.create(message.serializeBinary());
  const tag = reader.uint32();
  reader.skipType(tag & 7);
  if ((tag & 7) !== LENGTH_DELIMITED || reader.pos !== reader.len)
    throw new Error("fieldNumber: expected exactly one length-delimited field");
  return tag >>> 3;
}

const withFailure = new provproto.CheckResponse();
withFailure.addFailures(new provproto.CheckFailure());
/** pulumirpc field numbers (provider.proto), taken from the SDK's generated code. */
const FIELD = {
  check: { inputs: fieldNumber(new provproto.CheckResponse().setInputs(new Struct())), failures: fieldNumber(withFailure) },
  create: {
    urn: fieldNumber(new provproto.CreateRequest().setUrn("u")),
    properties: fieldNumber(new provproto.CreateRequest().setProperties(new Struct())),
    id: fieldNumber(new provproto.CreateResponse().setId("i")),
    outputs: fieldNumber(new provproto.CreateResponse().setProperties(new Struct())),
  },
  read: {
    id: fieldNumber(new provproto.ReadRequest().setId("i")),
    urn: fieldNumber(new provproto.ReadRequest().setUrn("u")),
    properties: fieldNumber(new provproto.ReadRequest().setProperties(new Struct())),
    answeredId: fieldNumber(new provproto.ReadResponse().setId("i")),
  },
  delete: {
    id: fieldNumber(new provproto.DeleteRequest().setId("i")),
    urn: fieldNumber(new provproto.DeleteRequest().setUrn("u")),
    properties: fieldNumber(new provproto.DeleteRequest().setProperties(new Struct())),
  },
} as const;

function fieldsOf(message: Buffer): Fields {
  const reader = Reader.create(message);
  const fields: Fields = {};
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if ((tag & 7) !== LENGTH_DELIMITED) {
      reader.skipType(tag & 7);
      continue;
    }
    const bytes = reader.bytes();
    fields[tag >>> 3] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  return fields;
}

/** A message of length-delimited fields (strings and embedded messages), in field order. */
function messageOf(fields: [number, string | Buffer][]): Buffer {
  const writer = Writer.create();
  for (const [field, value] of fields) {
    writer.uint32((field << 3) | LENGTH_DELIMITED);
    if (typeof value === "string") writer.string(value);
    else writer.bytes(value);
  }
  return Buffer.from(writer.finish());
}

/** Read and Delete name the object the same way: its id, its URN and its stored state. */
function onItem(fields: { id: number; urn: number; properties: number }, urn: string, id: string, properties: EncodedState): Buffer {
  return messageOf([
    [fields.id, id],
    [fields.urn, urn],
    [fields.properties, properties],
  ]);
}

/** One unary call: the response message, or an error carrying grpc-status and grpc-message. */
function unary(session: ClientHttp2Session, method: string, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      ":path": `${SERVICE}/${method}`,
      "content-type": "application/grpc",
      te: "trailers",
    });
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(message.length, 1);
    stream.end(Buffer.concat([prefix, message]));
    const chunks: Buffer[] = [];
    let status: string | undefined;
    let detail = "";
    // A failed call may answer with headers only ("Trailers-Only"), so the status is looked for in both.
    const noteStatus = (headers: Record<string, unknown>) => {
      if (headers["grpc-status"] !== undefined)
        [status, detail] = [String(headers["grpc-status"]), decodeURIComponent(String(headers["grpc-message"] ?? ""))];
    };
    stream.on("response", noteStatus);
    stream.on("trailers", noteStatus);
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("close", () => {
      if (status !== "0") return reject(new Error(`${method}: grpc-status ${status ?? "missing"} ${detail}`));
      const body = Buffer.concat(chunks);
      resolve(body.subarray(5, 5 + body.readUInt32BE(1)));
    });
  });
}

/** Connects to a dynamic-provider host at `address` (host:port); Configure it through provider-host.ts first. */
export function leanEngine(address: string): LeanEngine {
  const session = connect(`http://${address}`);
  return {
    async check(urn, news) {
      const req = new provproto.CheckRequest();
      req.setUrn(urn);
      req.setOlds(new Struct());
      req.setNews(Struct.fromJavaScript(news as Parameters<typeof Struct.fromJavaScript>[0]));
      const res = await unary(session, "Check", Buffer.from(req.serializeBinary()));
      const fields = fieldsOf(res);
      if (fields[FIELD.check.failures]) {
        const failures = provproto.CheckResponse.deserializeBinary(res).getFailuresList();
        throw new Error(`Check ${urn}: ${failures.map((f) => `${f.getProperty()} ${f.getReason()}`).join("; ")}`);
      }
      return fields[FIELD.check.inputs] ?? Buffer.alloc(0);
    },
    async create(urn, inputs) {
      const { create } = FIELD;
      const res = fieldsOf(
        await unary(
          session,
          "Create",
          messageOf([
            [create.urn, urn],
            [create.properties, inputs],
          ]),
        ),
      );
      return { id: res[create.id]?.toString() ?? "", properties: res[create.outputs] ?? Buffer.alloc(0) };
    },
    async read(urn, id, properties) {
      return fieldsOf(await unary(session, "Read", onItem(FIELD.read, urn, id, properties)))[FIELD.read.answeredId]?.toString() ?? "";
    },
    async delete(urn, id, properties) {
      await unary(session, "Delete", onItem(FIELD.delete, urn, id, properties));
    },
    close: () => session.close(),
  };
}
