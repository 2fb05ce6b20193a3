import type { Db } from "./database";
import type { Credentials } from "./identity/credentials";
import type { Organizations } from "./organizations";

export interface SandboxConfig {
  dataDir: string;
  /** Origin the sandbox is reachable at, e.g. `http://127.0.0.1:8787`: `{auth_url}`; `{base_url}` is this + `/api/v1`. */
  origin: string;
  /** Lifetime of access tokens from `/oauth/token`. */
  accessTokenTtlSeconds: number;
}

/** Everything a route needs, built once per server (and by the CLI on the same data folder). */
export interface SandboxContext {
  db: Db;
  config: SandboxConfig;
  orgs: Organizations;
  credentials: Credentials;
}
