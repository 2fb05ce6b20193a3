import type { FastifyReply } from "fastify";
import { html, SafeHtml } from "./html";

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24}header{background:#12355b;color:#fff;padding:.6em 1.2em;display:flex;gap:1.2em;align-items:center;flex-wrap:wrap}
header a{color:#fff}main{padding:1.2em;max-width:60em}table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.3em .6em;text-align:left}
.secret{background:#fff6d5;border:1px solid #e0c050;padding:.6em;font-family:monospace;word-break:break-all}.error{color:#a00020}form.inline{display:inline}
label{display:block;margin:.4em 0}fieldset{margin:1em 0;border:1px solid #ccd}`;
const STYLE_MARKUP = new SafeHtml(STYLE);

/**
 * Page headers for every HTML page: no framing (clickjacking), no scripts, inline styles only, nothing
 * cached, no referrer (authorization pages carry codes and state in URLs).
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: SafeHtml, nav?: SafeHtml): FastifyReply {
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("x-frame-options", "DENY")
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .send(
      html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · CloudCost sandbox</title><style>${STYLE_MARKUP}</style></head>
<body><header><strong>CloudCost sandbox</strong>${nav ?? ""}</header><main><h1>${title}</h1>${body}</main></body></html>`.markup,
    );
}
