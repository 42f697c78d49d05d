/**
 * `/api/docs`: the OpenAPI document as a readable page, rendered here on the server from the same
 * document `/api/openapi.json` serves (no CDN, no script: it passes the static page CSP). A library such
 * as Swagger UI or Redoc would add 1 MB or more of script and need its assets served and allowed; an
 * operation list with its parameters and request schema is what a partner's developer reads.
 */
type Doc = {
  info: { title: string; version: string };
  components?: { schemas?: Record<string, unknown> };
  /** Each path's operations, as openapi.ts builds them (read here as `Operation`). */
  paths: Record<string, Record<string, unknown>>;
};
type Operation = {
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses?: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

const esc = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A schema as indented JSON, its references to shared shapes as links to them (listed at the end). */
const schemaHtml = (schema: unknown) =>
  `<pre>${esc(JSON.stringify(schema, null, 2)).replace(
    /&#34;#\/components\/schemas\/(\w+)&#34;/g,
    (_, name: string) => `<a href="#schema-${name}">${name}</a>`,
  )}</pre>`;

export function apiDocsPage(doc: Doc): string {
  const ops = Object.entries(doc.paths)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Operation })),
    );
  const body = ops
    .map(({ path, method, op }) => {
      const params = op.parameters?.length
        ? `<table><thead><tr><th>Parameter</th><th>In</th><th>Schema</th></tr></thead><tbody>${op.parameters
            .map(
              (p) =>
                `<tr><td><code>${esc(p.name)}</code>${p.required ? ' *' : ''}</td><td>${esc(p.in)}</td><td><code>${esc(JSON.stringify(p.schema ?? {}))}</code></td></tr>`,
            )
            .join('')}</tbody></table>`
        : '';
      const json = op.requestBody?.content['application/json']?.schema;
      const request = json
        ? `<details><summary>Request body (JSON)</summary>${schemaHtml(json)}</details>`
        : '';
      const answers = Object.entries(op.responses ?? {})
        .filter(([status]) => status < '400')
        .map(([status, r]) => {
          const [media, content] = Object.entries(r.content ?? {})[0] ?? [];
          const title = `Answer ${esc(status)} ${esc(r.description)}${media ? ` (${esc(media)})` : ''}`;
          return content && media === 'application/json'
            ? `<details><summary>${title}</summary>${schemaHtml(content.schema)}</details>`
            : `<p class="answer">${title}</p>`;
        })
        .join('');
      return `<section id="${esc(`${method}-${path}`)}"><h2><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code>${
        op.security?.length ? ' <span class="lock">Bearer token or API key</span>' : ''
      }</h2>${params}${request}${answers}</section>`;
    })
    .join('');
  const shared = Object.entries(doc.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section id="schema-${esc(name)}"><h2><code>${esc(name)}</code></h2>${schemaHtml(schema)}</section>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} — API reference</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}
header{background:#0f2b46;color:#fff;padding:16px 20px}header h1{margin:0;font-size:20px}
main{max-width:1000px;margin:0 auto;padding:20px}section{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:12px 16px;margin:10px 0}
h2{font-size:15px;margin:0 0 6px;word-break:break-all}.m{display:inline-block;min-width:58px;text-align:center;border-radius:6px;padding:2px 6px;color:#fff;font-size:12px}
.get{background:#1d4ed8}.post{background:#047857}.put,.patch{background:#b45309}.delete{background:#b91c1c}
.lock{font-size:12px;color:#475569;font-weight:400}table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{border-bottom:1px solid #e2e8f0;padding:4px 8px;text-align:left}
.answer{font-size:13px;margin:6px 0}.shared{font-size:18px;margin:24px 0 8px}summary{cursor:pointer;font-size:13px;margin:6px 0}
pre{background:#f1f5f9;padding:8px;border-radius:6px;overflow-x:auto;font-size:12px}
</style></head><body><header><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1></header>
<main><p>Every call takes and answers JSON. Send <code>Authorization: Bearer &lt;token&gt;</code> with a token from
<code>POST /api/company/auth/sign-in</code>, or an API key (<code>ep_live_…</code>) made on the API keys page.
Answers are <code>{ data, message? }</code>; errors <code>{ message, errors: [{ key, message }] }</code> (422 for
invalid input). The machine-readable document is <a href="/api/openapi.json">/api/openapi.json</a>
(${ops.length} operations).</p>${body}${
    shared ? `<h2 class="shared">Shapes shared by several answers</h2>${shared}` : ''
  }</main></body></html>`;
}
