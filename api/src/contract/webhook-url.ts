import { isLoopbackHostname, parseUrl } from "./loopback";
import { z } from "./zod";

/**
 * https anywhere; plain http only to this machine. Judged by the WHATWG-parsed host, never by a string
 * prefix (`http://localhost:1@evil.example/` is a request to evil.example).
 */
function isAllowedWebhook(text: string): boolean {
  const url = parseUrl(text);
  if (!url) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHostname(url.hostname));
}

/** Where an alert's or a report's events are POSTed (Standard Webhooks, signed). */
export const WebhookUrl = z
  .string()
  .url("must be an absolute URL")
  .max(2048)
  .refine(isAllowedWebhook, "must be an https URL (plain http only to localhost, 127.0.0.1 or [::1])")
  .openapi({
    description: "an absolute https URL; plain http only to a loopback host (localhost, 127.0.0.1 or [::1]), judged by the parsed host",
  });
