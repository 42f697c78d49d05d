/**
 * Malformed request bodies, sent to EVERY operation of the API that takes or may take a body (every
 * non-GET route of the route table), as a senior admin with a real id of the seeded world in each path:
 * JSON sent as text/plain, XML, cut-off JSON, an empty JSON body, 5000-deep JSON, multipart without a
 * boundary, multipart with fields no operation has, form-urlencoded. None may answer 5xx, none may answer
 * 2xx (nor 401: the caller stays signed in), and no stored row may change. The cases are generated from the route table.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { env } from 'cloudflare:test';
import { createApp } from '../../workers/http';
import { apiToken, call } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld } from '../support/contracts';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';
const multipartFields = [
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="no_such_field"',
  '',
  'value',
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="no_such_file"; filename="note.txt"',
  'Content-Type: text/plain',
  '',
  'hello',
  `--${BOUNDARY}--`,
  '',
].join('\r\n');

const DEEP = 5000;

/** Each kind of malformed body: what a careless or hostile client sends. */
const MALFORMED: { kind: string; contentType: string; raw: string }[] = [
  {
    kind: 'JSON sent as text/plain',
    contentType: 'text/plain;charset=UTF-8',
    raw: '{"name":"Fuzz","status":"archived","address":"1 Fuzz Street"}',
  },
  {
    kind: 'XML',
    contentType: 'application/xml',
    raw: '<?xml version="1.0"?><campus><name>Fuzz</name><status>archived</status></campus>',
  },
  { kind: 'cut-off JSON', contentType: 'application/json', raw: '{"name":"Fuzz","address":{"addr' },
  { kind: 'empty JSON body', contentType: 'application/json', raw: '' },
  {
    kind: `${DEEP}-deep JSON`,
    contentType: 'application/json',
    raw: '{"address":'.repeat(DEEP) + '1' + '}'.repeat(DEEP),
  },
  { kind: 'multipart without a boundary', contentType: 'multipart/form-data', raw: multipartFields },
  {
    kind: 'multipart with fields of no operation',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    raw: multipartFields,
  },
  {
    kind: 'form-urlencoded',
    contentType: 'application/x-www-form-urlencoded',
    raw: 'name=Fuzz&status=archived&address=1+Fuzz+Street',
  },
];

/** The operations that may take a body: every non-GET route under /api, once per method and path. */
const OPERATIONS = [
  ...new Map(
    createApp()
      .routes.filter((r) => r.path.startsWith('/api/') && !['ALL', 'GET', 'HEAD'].includes(r.method))
      .map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }]),
  ).values(),
];

/** Tables whose rows are the portal's data (all of them: a refused call writes nothing anywhere). */
async function tableNames(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/**
 * A signed-in call refreshes its session's last_seen_at once a minute (SESSION_LIMITS.touchEveryMs):
 * that is the caller being seen, not the body changing data, and on a slow machine the file runs longer
 * than a minute. Left out of the comparison; every other column of every table is compared.
 */
const SEEN_AT = 'last_seen_at';

async function snapshot(tables: string[]): Promise<Map<string, string>> {
  const rows = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT * FROM "${t}"`)));
  return new Map(
    tables.map((t, i) => {
      const results = rows[i].results as Record<string, unknown>[];
      const compared = t === 'sessions' ? results.map(({ [SEEN_AT]: _, ...rest }) => rest) : results;
      return [t, JSON.stringify(compared)];
    }),
  );
}

/** A real id of the seeded world for a path parameter, found by the path segment before it (else the first row). */
const ids = new Map<string, string>();
async function realId(segment: string, tables: string[]): Promise<string> {
  const cached = ids.get(segment);
  if (cached) return cached;
  const base = segment.replace(/-/g, '_');
  const table = [base, `product_${base}`, `campus_${base}`, `client_${base}`].find((t) => tables.includes(t));
  let id = 'nosuchid00';
  if (table) {
    const { results: columns } = await env.DB.prepare(`PRAGMA table_info("${table}")`).all<{
      name: string;
    }>();
    const column = columns.some((c) => c.name === 'public_id') ? 'public_id' : 'id';
    const row = await env.DB.prepare(`SELECT "${column}" AS id FROM "${table}" ORDER BY id LIMIT 1`).first<{
      id: string | number;
    }>();
    if (row) id = String(row.id);
  }
  ids.set(segment, id);
  return id;
}

async function fillPath(path: string, tables: string[]): Promise<string> {
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const param = /^:(\w+)(\{([^}]*)\})?$/.exec(parts[i]);
    if (!param) continue;
    if (param[3]) parts[i] = param[3].split('|')[0];
    else if (param[1] === 'company') parts[i] = await realId('companies', tables);
    else if (param[1] === 'contractId') parts[i] = await realId('contracts', tables);
    else if (param[1] === 'invoiceId') parts[i] = await realId('invoices', tables);
    else parts[i] = await realId(parts[i - 1] ?? '', tables);
  }
  return parts.join('/');
}

/**
 * How many rows the database has written since it opened (SQLite's total_changes()): an operation that
 * left it where it was wrote nothing, so the whole database is compared only when it moved (a session's
 * last_seen_at, or a defect). The last whole copy is the baseline the next comparison starts from.
 */
async function changes(): Promise<number> {
  const row = await env.DB.prepare('SELECT total_changes() AS n').first<{ n: number }>();
  return Number(row?.n ?? 0);
}

let token: string;
let tables: string[];
let baseline: Map<string, string>;

beforeAll(async () => {
  const w = await seedContractsWorld();
  // The senior admin's own records, so each operation gets past "not found" to its body where it can.
  ids.set('campuses', w.north.public_id);
  ids.set('clients', w.oakwood.public_id);
  ids.set('companies', w.albion.public_id);
  ids.set('products', w.product.public_id);
  token = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  tables = await tableNames();
  baseline = await snapshot(tables);
}, SETUP_TIMEOUT_MS);

describe('every API operation refuses every kind of malformed body', () => {
  it('covers the route table', () => {
    expect(OPERATIONS.length).toBeGreaterThan(80);
  });

  it('sees a write in the database counter it trusts', async () => {
    const before = await changes();
    await env.DB.prepare(`UPDATE sessions SET ${SEEN_AT} = ${SEEN_AT}`).run();
    expect(await changes()).toBeGreaterThan(before);
  });

  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path}`, async () => {
      const path = await fillPath(op.path, tables);
      const written = await changes();
      const answers: string[] = [];
      let signedOut = false;
      for (const body of MALFORMED) {
        const answer = await call(path, {
          method: op.method,
          raw: body.raw,
          contentType: body.contentType,
          token,
        });
        // The caller stays signed in: a 401 would hide what the body does to the operation.
        if (process.env.FUZZ_DEBUG)
          console.log(op.method, path, body.kind, answer.status, JSON.stringify(answer.body).slice(0, 150));
        if (answer.status >= 500 || answer.status < 400 || answer.status === 401)
          answers.push(`${body.kind}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        signedOut ||= answer.status === 401;
      }
      // A malformed call that signed the caller out fails here; the next operations get a new token.
      if (signedOut) token = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
      expect(answers, `${op.method} ${path}`).toEqual([]);
      if ((await changes()) === written) return;
      const after = await snapshot(tables);
      const changed = tables.filter((t) => baseline.get(t) !== after.get(t));
      baseline = after;
      expect(changed, `${op.method} ${path} changed stored rows`).toEqual([]);
    });
  }
});

describe('what a refused body answers', () => {
  const body = (message: string) => ({ message, errors: [{ key: 'body', message }] });
  const campus = () => `/api/company/campuses/${ids.get('campuses')}`;

  it('a JSON operation: 415 for another kind, 400 for JSON that does not parse or nests too deep', async () => {
    const send = (raw: string, contentType: string) =>
      call(`${campus()}/billing-address/update`, { method: 'PATCH', raw, contentType, token });
    const notJson = await send('{"address":null}', 'text/plain;charset=UTF-8');
    expect(notJson.status).toBe(415);
    expect(notJson.body).toEqual(body('Send the request body as JSON (Content-Type: application/json).'));
    const cut = await send('{"address":{"addr', 'application/json');
    expect(cut.status).toBe(400);
    expect(cut.body).toEqual(body('The request body could not be read.'));
    const deep = await send('['.repeat(33) + ']'.repeat(33), 'application/json');
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual(body('The request body is nested too deeply.'));
  });

  it('a multipart operation: 415 for another kind, 400 without a boundary, 422 naming fields it does not take', async () => {
    const path = `${campus()}/notes/add`;
    const json = await call(path, { method: 'POST', json: { title: 'x' }, token });
    expect(json.status).toBe(415);
    expect(json.body).toEqual(body('Send the request body as multipart/form-data.'));
    const noBoundary = await call(path, {
      method: 'POST',
      raw: multipartFields,
      contentType: 'multipart/form-data',
      token,
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body).toEqual(body('The request body could not be read.'));
    const wrong = await call(path, {
      method: 'POST',
      raw: multipartFields,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      token,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({
      errors: [
        { key: 'no_such_field', message: 'This field is not part of this request.' },
        { key: 'no_such_file', message: 'This field is not part of this request.' },
      ],
    });
  });

  it('an operation taking JSON or multipart names both; one taking no body accepts {} and refuses the rest', async () => {
    const client = await call(`/api/company/clients/${ids.get('clients')}/update`, {
      method: 'PATCH',
      raw: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
      token,
    });
    expect(client.status).toBe(415);
    expect(client.body).toEqual(body('Send the request body as JSON or as multipart/form-data.'));
    const path = `/api/company/notifications/read-all-unused-${Date.now()}`;
    expect(
      (await call(path, { method: 'POST', raw: '<x/>', contentType: 'application/xml', token })).status,
    ).toBe(404);
    const none = await call('/api/company/auth/logout', {
      method: 'POST',
      raw: '<x/>',
      contentType: 'application/xml',
      token,
    });
    expect(none.status).toBe(415);
    expect(none.body).toEqual(body('This operation takes no request body.'));
    const fields = await call('/api/company/auth/logout', { method: 'POST', json: { all: true }, token });
    expect(fields.status).toBe(422);
    expect((await call('/api/company/auth/get', { token })).status).toBe(200);
    const empty = await call('/api/company/auth/logout', { method: 'POST', json: {}, token });
    expect(empty.status).toBe(200);
    token = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  });

  it('a JSON operation sent no body at all lets its schema decide (marking every notification read takes none)', async () => {
    expect((await call('/api/company/notifications/read', { method: 'POST', token })).status).toBe(200);
    const required = await call(`${campus()}/billing-address/update`, { method: 'PATCH', token });
    expect(required.status).toBe(422);
  });
});
