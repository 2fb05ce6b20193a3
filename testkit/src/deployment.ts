import * as pulumi from "@pulumi/pulumi";
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { Engine } from "./engine";
import { outputValue } from "./mock-engine";
import { secret, type ProviderHost } from "./provider-host";
import { holdSandboxDay, startSandbox, type RunningSandbox } from "./sandbox";

/**
 * A sandbox and an update of the engine stand-in (engine.ts) open for a program's registrations, which go
 * through the engine rules to the real dynamic-provider host configured for the sandbox (the examples'
 * and the provider's program tests; `CLOUDCOST_*` point the program's cost functions at it).
 */
export interface Deployment {
  sandbox: RunningSandbox;
  /** The API token the host and the program use (tests search for it where it must not appear). */
  token: string;
  host: ProviderHost;
  engine: Engine;
  /** Reads the sandbox the way a user would check it: through the API. */
  api: CloudCostClient;
  stop(): Promise<void>;
}

export async function startDeployment(): Promise<Deployment> {
  const sandbox = await startSandbox();
  let token: string;
  let host: ProviderHost;
  let engine: Engine;
  try {
    token = await sandbox.token("read,write");
    await holdSandboxDay(sandbox, token);
    const config = { "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) };
    engine = new Engine({ config });
    host = (await engine.hostFor(config)).host;
  } catch (err) {
    // A test's afterAll never sees a half-started deployment: stop the sandbox here.
    await sandbox.dispose();
    throw err;
  }
  // The cost-data functions run in the program's own process and read the same settings from the environment.
  const saved = { url: process.env.CLOUDCOST_API_URL, token: process.env.CLOUDCOST_API_TOKEN };
  process.env.CLOUDCOST_API_URL = sandbox.baseUrl;
  process.env.CLOUDCOST_API_TOKEN = token;
  await engine.open();
  const api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  return {
    sandbox,
    token,
    host,
    engine,
    api,
    stop: async () => {
      process.env.CLOUDCOST_API_URL = saved.url;
      process.env.CLOUDCOST_API_TOKEN = saved.token;
      if (saved.url === undefined) delete process.env.CLOUDCOST_API_URL;
      if (saved.token === undefined) delete process.env.CLOUDCOST_API_TOKEN;
      await engine.stop();
      await sandbox.dispose();
      await closeAllPools();
    },
  };
}

/** The value of a stack output (an Output, or a plain value such as a map of Outputs). */
export async function valueOf<T>(output: unknown): Promise<T> {
  return outputValue(pulumi.output(output) as pulumi.Output<T>);
}

/** The id of the resource the program registered as `name`. */
export function idOf(d: Deployment, name: string): string {
  const r = d.engine.resources.find((x) => x.name === name);
  if (!r) throw new Error(`the program registered no resource named ${name}`);
  return r.id;
}
