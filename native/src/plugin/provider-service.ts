import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { ResourceKind } from "@cloudcost/pulumi";
import {
  changedKeys,
  checkedApiUrl,
  configureFrom,
  currentClient,
  handlers,
  specs,
  CREATE_KEY,
  URN_KEY,
  userFacing,
} from "@cloudcost/pulumi/runtime";
import { functionOf } from "../functions";
import { kindOf } from "../tokens";
import { changedConfigKeys, configureInputs, lookupOf, unknownConfigKeys } from "./provider-config";
import { fromStruct, marked, secretKeysOf, toStruct, unwrapped, type Props } from "./properties";
import type { PackageSchemaText } from "./schema-file";

/*
 * The native front door: pulumirpc.ResourceProvider (pulumi/pulumi proto/pulumi/provider.proto) served with
 * the SDK's generated stubs, onto the same runtime handlers the dynamic provider calls. Served here rather than
 * through `@pulumi/pulumi/provider`'s server because that one (3.270) answers CheckConfig/DiffConfig with
 * UNIMPLEMENTED and drops the provider configuration Configure carries. Methods left out (Construct, Call,
 * Parameterize, Attach, …) are answered UNIMPLEMENTED by grpc-js, which the engine understands.
 */

type Unary<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => void;

/** A handler whose errors reach the engine as their message alone (no stack frames, no source paths). */
function unary<Req, Res>(work: (req: Req) => Promise<Res> | Res): Unary<Req, Res> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => work(call.request))
      .then(
        (res) => callback(null, res),
        (e: unknown) => callback({ code: grpc.status.UNKNOWN, details: userFacing(e).message }),
      );
  };
}

/**
 * Outputs as the schema declares them: the create key (issue 28) stays among the inputs only. The dynamic front
 * door keeps it in the outputs because its Read sees nothing else; here Read gets the stored inputs too.
 */
function declaredOutputs(outs: Props): Props {
  const { [CREATE_KEY]: _key, ...declared } = outs;
  return declared;
}

function kindFor(type: string, urn: string): ResourceKind {
  const token = type || urn.split("::")[2]?.split("$").pop() || "";
  const kind = kindOf(token);
  if (!kind)
    throw new Error(`unknown resource type ${token}: this provider has cloudcost:index:CloudGroup, BudgetAlert and ScheduledReport`);
  return kind;
}

function checkResponse(inputs: Props, failures: { property: string; reason: string }[] = []): provproto.CheckResponse {
  const res = new provproto.CheckResponse();
  res.setInputs(toStruct(inputs));
  res.setFailuresList(
    failures.map(({ property, reason }) => {
      const f = new provproto.CheckFailure();
      f.setProperty(property);
      f.setReason(reason);
      return f;
    }),
  );
  return res;
}

function diffResponse(keys: readonly string[], deleteBeforeReplace = false): provproto.DiffResponse {
  const res = new provproto.DiffResponse();
  res.setChanges(keys.length ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
  res.setDiffsList([...keys]);
  res.setDeletebeforereplace(deleteBeforeReplace);
  // Every change is made in place (PATCH/PUT): no key replaces, so the schema has no replaceOnChanges.
  const detailed = res.getDetaileddiffMap();
  for (const key of keys) {
    const d = new provproto.PropertyDiff();
    d.setKind(provproto.PropertyDiff.Kind.UPDATE);
    d.setInputdiff(true);
    detailed.set(key, d);
  }
  res.setHasdetaileddiff(true);
  return res;
}

/** Secret property names per resource kind, from the package schema (`secret: true`). */
function secretsByKind(schema: PackageSchemaText): (kind: ResourceKind) => string[] {
  const parsed = JSON.parse(schema.text) as {
    resources: Record<string, { properties: Record<string, { secret?: boolean }>; inputProperties: Record<string, { secret?: boolean }> }>;
  };
  return (kind) => {
    const r = parsed.resources[`cloudcost:index:${kind}`];
    if (!r) return [];
    return [
      ...new Set([...Object.entries(r.inputProperties), ...Object.entries(r.properties)].filter(([, p]) => p.secret).map(([k]) => k)),
    ];
  };
}

/** The service implementation handed to `grpc.Server.addService(ResourceProviderService, …)`. */
export function providerService(version: string, schema: PackageSchemaText): grpc.UntypedServiceImplementation {
  const secretsOf = secretsByKind(schema);
  /** What goes back to the engine: the schema's secrets and whatever the request had secret stay secret. */
  const back = (kind: ResourceKind, props: Props, request: Props): Props => marked(props, [...secretsOf(kind), ...secretKeysOf(request)]);

  return {
    getPluginInfo: unary<Empty, plugproto.PluginInfo>(() => new plugproto.PluginInfo().setVersion(version)),

    getSchema: unary<provproto.GetSchemaRequest, provproto.GetSchemaResponse>(() =>
      new provproto.GetSchemaResponse().setSchema(schema.text),
    ),

    checkConfig: unary<provproto.CheckRequest, provproto.CheckResponse>((req) => {
      const news = fromStruct(req.getNews());
      const failures = unknownConfigKeys(news).map((property) => ({
        property,
        reason: `is not a setting of the cloudcost provider (it has apiUrl, apiToken, clientId, clientSecret and authUrl)`,
      }));
      try {
        // Validates apiUrl (naming the value to set); Configure is what configures.
        checkedApiUrl(lookupOf(news));
      } catch (e) {
        failures.push({ property: "apiUrl", reason: userFacing(e).message });
      }
      return checkResponse(news, failures);
    }),

    diffConfig: unary<provproto.DiffRequest, provproto.DiffResponse>((req) =>
      // A new URL or credential reconfigures the provider; the objects it manages stay what they are.
      diffResponse(changedConfigKeys(fromStruct(req.getOlds()), fromStruct(req.getNews()))),
    ),

    configure: unary<provproto.ConfigureRequest, provproto.ConfigureResponse>((req) => {
      configureFrom(lookupOf(configureInputs(req)));
      const res = new provproto.ConfigureResponse();
      res.setAcceptsecrets(true);
      res.setAcceptresources(false);
      res.setAcceptoutputs(false);
      res.setSupportspreview(false);
      return res;
    }),

    check: unary<provproto.CheckRequest, provproto.CheckResponse>(async (req) => {
      const kind = kindFor(req.getType(), req.getUrn());
      const news = fromStruct(req.getNews());
      // The URN as the runtime takes it from a program (URN_KEY): with it, Check adds the create's idempotency key.
      const plain = { ...(unwrapped(news) as Props), [URN_KEY]: req.getUrn() };
      const result = await handlers[kind].check(unwrapped(fromStruct(req.getOlds())) as Props, plain);
      return checkResponse(back(kind, result.inputs ?? {}, news), result.failures ?? []);
    }),

    diff: unary<provproto.DiffRequest, provproto.DiffResponse>((req) => {
      const kind = kindFor(req.getType(), req.getUrn());
      const olds = unwrapped(fromStruct(req.getOlds())) as Props;
      const news = unwrapped(fromStruct(req.getNews())) as Props;
      const ignored = new Set(req.getIgnorechangesList());
      const keys = changedKeys(specs[kind], olds, news).filter((k) => !ignored.has(k));
      return diffResponse(keys, specs[kind].uniqueOnService === true);
    }),

    create: unary<provproto.CreateRequest, provproto.CreateResponse>(async (req) => {
      const kind = kindFor(req.getType(), req.getUrn());
      const inputs = fromStruct(req.getProperties());
      const { id, outs } = await handlers[kind].create(unwrapped(inputs) as Props);
      return new provproto.CreateResponse().setId(id).setProperties(toStruct(back(kind, declaredOutputs(outs ?? {}), inputs)));
    }),

    read: unary<provproto.ReadRequest, provproto.ReadResponse>(async (req) => {
      const kind = kindFor(req.getType(), req.getUrn());
      const state = fromStruct(req.getProperties());
      const stored = unwrapped(fromStruct(req.getInputs())) as Props;
      // The create key rides along from the stored inputs, so Read gives it back with them.
      const carried = typeof stored[CREATE_KEY] === "string" ? { [CREATE_KEY]: stored[CREATE_KEY] } : {};
      const { id, props, inputs } = await handlers[kind].read(req.getId(), { ...(unwrapped(state) as Props), ...carried });
      const res = new provproto.ReadResponse().setId(id ?? "");
      if (!id) return res; // deleted outside Pulumi: the engine drops it from state
      const was = { ...state, ...fromStruct(req.getInputs()) };
      return res.setProperties(toStruct(back(kind, declaredOutputs(props ?? {}), was))).setInputs(toStruct(back(kind, inputs ?? {}, was)));
    }),

    update: unary<provproto.UpdateRequest, provproto.UpdateResponse>(async (req) => {
      const kind = kindFor(req.getType(), req.getUrn());
      const news = fromStruct(req.getNews());
      const olds = unwrapped(fromStruct(req.getOlds())) as Props;
      const { outs } = await handlers[kind].update(req.getId(), olds, unwrapped(news) as Props);
      return new provproto.UpdateResponse().setProperties(toStruct(back(kind, declaredOutputs(outs ?? {}), news)));
    }),

    delete: unary<provproto.DeleteRequest, Empty>(async (req) => {
      const kind = kindFor(req.getType(), req.getUrn());
      // The create key stays among the inputs here (declaredOutputs); Delete needs it beside the outputs
      // (provider/src/runtime/given-back.ts).
      const stored = unwrapped(fromStruct(req.getOldInputs())) as Props;
      const carried = typeof stored[CREATE_KEY] === "string" ? { [CREATE_KEY]: stored[CREATE_KEY] } : {};
      await handlers[kind].delete(req.getId(), { ...(unwrapped(fromStruct(req.getProperties())) as Props), ...carried });
      return new Empty();
    }),

    invoke: unary<provproto.InvokeRequest, provproto.InvokeResponse>(async (req) => {
      const fn = functionOf(req.getTok());
      if (!fn) throw new Error(`unknown function ${req.getTok()}`);
      const args = unwrapped(fromStruct(req.getArgs())) as Props;
      const parsed = fn.input ? fn.input.safeParse(args) : { success: true as const };
      if (!parsed.success) {
        const res = new provproto.InvokeResponse();
        res.setFailuresList(
          parsed.error.issues.map((issue) => new provproto.CheckFailure().setProperty(issue.path.join(".")).setReason(issue.message)),
        );
        return res;
      }
      const result = await fn.call(currentClient(), args);
      return new provproto.InvokeResponse().setReturn(toStruct(marked(result, fn.secretOutputs ?? [])));
    }),

    cancel: unary<Empty, Empty>(() => new Empty()),

    getMapping: unary<provproto.GetMappingRequest, provproto.GetMappingResponse>(() => new provproto.GetMappingResponse()),
    getMappings: unary<provproto.GetMappingsRequest, provproto.GetMappingsResponse>(() => new provproto.GetMappingsResponse()),
  };
}
