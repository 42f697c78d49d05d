/**
 * The development webhook receiver's two pages (workers/web/webhook-receiver.ts): the list of requests
 * that arrived, and one request with every header and its raw body. Plain HTML with no script (the
 * Worker's static page policy); English only, as a partner's own site would be.
 */
import type { Receipt } from './webhook-receiver';

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
header{background:#1e293b;color:#fff;padding:14px 20px;font-weight:700}
header a{color:#fff}main{padding:20px;max-width:1200px}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;background:#fff;font-size:14px}
th,td{border-bottom:1px solid #e2e8f0;padding:8px;text-align:left;vertical-align:top}
.ok{color:#166534;font-weight:700}.bad{color:#991b1b;font-weight:700}
pre{white-space:pre-wrap;word-break:break-all;background:#fff;border:1px solid #cbd5e1;padding:12px;font-size:13px}
code{word-break:break-all}a{color:#1d4ed8}.muted{color:#475569;font-size:13px}
nav.pager{margin-top:16px;display:flex;gap:16px}`;

function layout(title: string, content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Webhook receiver (development)</title><style>${STYLE}</style></head><body>
<header><a href="/dev/webhooks">Webhook receiver</a> <small>(development: stands for partners' endpoints)</small></header>
<main>${content}</main></body></html>`;
}

const time = (iso: string) => escape(iso.replace('T', ' ').slice(0, 23));
const link = (r: Receipt) => `/dev/webhooks/requests/${encodeURIComponent(r.key)}`;
const check = (r: Receipt) =>
  r.verified ? '<span class="ok">valid</span>' : '<span class="bad">invalid</span>';

/** The requests that arrived, newest first; `older` is the cursor of the next page. */
export function receiptsPage(receipts: Receipt[], older: string | null, notFirst: boolean): string {
  const rows = receipts
    .map(
      (r) => `<tr><td><a href="${link(r)}">${time(r.received_at)}</a></td>
<td><code>${escape(r.address)}</code></td><td><code>${escape(r.webhook_id ?? '')}</code></td>
<td>${escape(eventOf(r.body))}</td><td>${check(r)}</td><td>${r.answered}</td></tr>`,
    )
    .join('');
  const pager = [
    notFirst ? '<a href="/dev/webhooks">Newest</a>' : '',
    older ? `<a href="/dev/webhooks?cursor=${encodeURIComponent(older)}">Older requests</a>` : '',
  ].join('');
  return layout(
    'Received webhooks',
    `<h1>Received webhooks</h1>
<p class="muted">Any address under <code>/dev/webhooks/</code> takes webhooks: register one on the API keys page. The
signature is checked with the secret of the endpoint the delivery was made for; add <code>?fail=503</code> to an
address to make it fail. Open a request for its headers and its raw body.</p>${
      receipts.length
        ? `<div class="scroll"><table><caption class="muted">Newest first</caption><thead><tr><th>Received</th><th>Address</th><th>webhook-id</th><th>Event</th><th>Signature</th><th>Answered</th></tr></thead><tbody>${rows}</tbody></table></div>`
        : '<p>Nothing has arrived yet.</p>'
    }${pager ? `<nav class="pager" aria-label="Pages">${pager}</nav>` : ''}`,
  );
}

/** One request: what was checked, every header, the body as it arrived. */
export function receiptPage(r: Receipt): string {
  const headers = r.headers
    .map(
      ([name, value]) =>
        `<tr><th scope="row"><code>${escape(name)}</code></th><td><code>${escape(value)}</code></td></tr>`,
    )
    .join('');
  return layout(
    `Request ${r.key}`,
    `<h1>${escape(r.method)} ${escape(r.address)}</h1>
<p>Received ${time(r.received_at)} · signature ${check(r)}${r.refused ? ` (${escape(r.refused)})` : ''} · answered ${r.answered}${
      r.endpoint ? ` · endpoint <code>${escape(r.endpoint)}</code>` : ''
    }</p>
<p class="muted">The signature is HMAC-SHA256, under the endpoint's secret (the bytes after <code>whsec_</code>, base64-decoded),
of <code>webhook-id</code>, a dot, <code>webhook-timestamp</code>, a dot and the body's exact bytes.</p>
<h2>Headers</h2><div class="scroll"><table><tbody>${headers}</tbody></table></div>
<h2>Body (${r.body_bytes} bytes, as received)</h2>
<p><a href="${link(r)}/body" download>Download the body's bytes</a></p>
<pre>${escape(r.body)}</pre>`,
  );
}

function eventOf(body: string): string {
  try {
    return String((JSON.parse(body) as { type?: string }).type ?? '');
  } catch {
    return '';
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
