import { UserAgent, hiddenFields, location } from "./user-agent";

/** The seeded sandbox user of the `demo` organization, as documented in sandbox/OAUTH.md. */
export const DEMO_USER = { email: "demo@cloudcost.dev", password: "sandbox-demo-password" } as const;

/** Signs in through the portal's form; resolves with the redirect target after a successful sign-in. */
export async function signIn(
  agent: UserAgent,
  credentials: { email: string; password: string } = DEMO_USER,
  next?: string,
): Promise<Response> {
  const page = await agent.get(next === undefined ? "/portal/sign-in" : `/portal/sign-in?${new URLSearchParams({ next })}`);
  const fields = hiddenFields(await page.text(), "/portal/sign-in");
  return agent.post("/portal/sign-in", { ...fields, ...credentials });
}

/** A fresh agent signed in as the demo user. */
export async function signedInAgent(origin: string): Promise<UserAgent> {
  const agent = new UserAgent(origin);
  const response = await signIn(agent);
  if (response.status !== 303) throw new Error(`sign-in failed with ${response.status}`);
  return agent;
}

/**
 * Plays the user's part of the authorization-code flow: opens the authorization URL, signs in when
 * asked, and submits the consent form with `decision`. Resolves with the URL the browser is finally
 * sent to (the client's redirect URI with `code` or `error`).
 */
export async function authorizeAsUser(agent: UserAgent, authorizationUrl: URL, decision: "allow" | "deny" = "allow"): Promise<URL> {
  let response = await agent.get(authorizationUrl.href);
  if (response.status === 302 && location(response).startsWith("/portal/sign-in")) {
    const signedIn = await signIn(agent, DEMO_USER, new URL(location(response), agent.origin).searchParams.get("next")!);
    response = await agent.get(location(signedIn));
  }
  if (response.status !== 200) return new URL(location(response), agent.origin);
  const decided = await agent.post("/oauth/authorize", { ...hiddenFields(await response.text(), "/oauth/authorize"), decision });
  return new URL(location(decided), agent.origin);
}
