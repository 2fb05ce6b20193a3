import type * as OAuth from "oauth4webapi" with { "resolution-mode": "import" };

export type { OAuth };

/** The sandbox is plain http on 127.0.0.1; oauth4webapi refuses http unless each request says so. */
export type Insecure = { [OAuth.allowInsecureRequests]: true };

export interface OAuthLibrary {
  oauth: typeof OAuth;
  insecure: Insecure;
}

/** oauth4webapi is ESM-only and the tests compile to CommonJS: load it dynamically (jest's transform handles it). */
export async function loadOAuth(): Promise<OAuthLibrary> {
  const oauth = await import("oauth4webapi");
  return { oauth, insecure: { [oauth.allowInsecureRequests]: true } };
}
