import type { FastifyReply } from "fastify";
import { html, SafeHtml } from "./html";

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#12355b;color:#fff;padding:.6em 1.2em;display:flex;gap:.6em 1.2em;align-items:center;flex-wrap:wrap}
header a{color:#fff}header nav{display:flex;flex-wrap:wrap;gap:.2em .9em}header nav a[aria-current]{font-weight:700;text-decoration-thickness:3px}
main{padding:1.2em;max-width:72em;overflow-x:auto}h1{margin-top:0}table{border-collapse:collapse;background:#fff}
td,th{border:1px solid #ccd;padding:.3em .6em;text-align:left;vertical-align:top}
.secret{background:#fff6d5;border:1px solid #e0c050;padding:.6em;font-family:monospace;word-break:break-all}.error{color:#a00020}form.inline{display:inline}
label{display:block;margin:.4em 0}fieldset{margin:1em 0;border:1px solid #ccd}input,select,textarea,button{font:inherit}
.field-error{color:#a00020;font-weight:600}[aria-invalid="true"]{border:2px solid #a00020}.panel{background:#fff;border:1px solid #ccd;padding:.8em 1em;margin:1em 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}.chart{position:relative;height:18em;max-width:60em}
.actions{display:flex;gap:.4em;flex-wrap:wrap;align-items:flex-start}code{word-break:break-all}main{position:relative}
@media (max-width:40em){main{padding:.8em}table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:auto}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}table.cards tr{border:1px solid #ccd;margin:0 0 .8em;background:#fff}
table.cards td{border:0;border-bottom:1px solid #eef}table.cards td::before{content:attr(data-label);display:block;font-size:.8em;font-weight:600;color:#4a5260}
table.cards td[data-label=""]::before{content:none}.budget-bar{max-width:100%;height:auto}}`;
const STYLE_MARKUP = new SafeHtml(STYLE);

export interface PageOptions {
  /** Same-origin script URLs the page loads (deferred); only pages that list some may run scripts at all. */
  scripts?: readonly string[];
}

/**
 * Page headers for every HTML page: no framing (clickjacking), no inline scripts (only the same-origin
 * files a page names), inline styles only, nothing cached, no referrer (authorization pages carry codes
 * and state in URLs).
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: SafeHtml,
  nav?: SafeHtml,
  options: PageOptions = {},
): FastifyReply {
  const scripts = options.scripts ?? [];
  const scriptSrc = scripts.length > 0 ? "; script-src 'self'" : "";
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("x-frame-options", "DENY")
    .header("referrer-policy", "no-referrer")
    .header("x-content-type-options", "nosniff")
    .header(
      "content-security-policy",
      `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'${scriptSrc}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .send(
      html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · CloudCost sandbox</title><link rel="icon" href="/favicon.ico" type="image/svg+xml"><style>${STYLE_MARKUP}</style>${scripts.map((src) => html`<script src="${src}" defer></script>`)}</head>
<body><header><strong>CloudCost sandbox</strong>${nav ?? ""}</header><main><h1>${title}</h1>${body}</main></body></html>`.markup,
    );
}
