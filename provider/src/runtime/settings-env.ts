/**
 * Stack config key (`cloudcost:<key>`) → its environment fallback; the policy pack reads the same names. A module of its
 * own, with no import: the package's entry point exports it, and a Pulumi program that only declares resources then
 * loads no part of the client or the contract (issue 39).
 */
export const SETTINGS_ENV = {
  apiUrl: "CLOUDCOST_API_URL",
  authUrl: "CLOUDCOST_AUTH_URL",
  apiToken: "CLOUDCOST_API_TOKEN",
  clientId: "CLOUDCOST_CLIENT_ID",
  clientSecret: "CLOUDCOST_CLIENT_SECRET",
} as const;
