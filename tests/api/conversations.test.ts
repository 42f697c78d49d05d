/**
 * The message centre's calls (spec 002 s.7): start and add as multipart with attachments, the inbox,
 * a thread, its messages, download, status, unread, flag, archive, the unread count, the clients
 * list's bulk start; a body of the wrong kind is refused; another tenant's ids answer 404.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../workers/http';
import type { Env } from '../../workers/env';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { CLIENT_STRANGERS, seedClientsWorld, type ClientsWorld } from '../support/clients';
import { exeBytes, fileOf, pdfBytes } from '../support/files';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();
/** Emails stay in the outbox here: the Worker's own queue consumer would deliver them in the background. */
const quiet: Partial<Env> = { JOBS: { send: async () => {}, sendBatch: async () => {} } as never };

let w: ClientsWorld;
let school: string;
let staff: string;
let stranger: string;

async function multipart(path: string, fields: Record<string, string | File | File[]>, token: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  }
  const res = await app.request(
    path,
    {
      method: 'POST',
      headers: { 'cf-connecting-ip': uniqueIp(), authorization: `Bearer ${token}` },
      body: form,
    },
    { ...testEnv(), ...quiet },
  );
  return { status: res.status, body: (await res.json()) as never };
}

const get = <T>(path: string, token: string) => call<T>(path, { token, env: quiet });
const send = <T>(method: string, path: string, token: string, json?: unknown) =>
  call<T>(path, { method, token, json, env: quiet });

interface Thread {
  id: string;
  subject: string;
  status: string;
  client: { id: string };
}
interface Message {
  id: string;
  body: string;
  attachments: { id: string; name: string }[];
}

beforeAll(async () => {
  w = await seedClientsWorld();
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  staff = await apiToken(DEMO_ACCOUNTS.admin);
  stranger = await apiToken(CLIENT_STRANGERS.permissiveCompanyUser);
}, SETUP_TIMEOUT_MS);

describe('a thread through the API', () => {
  let thread: Thread;
  let first: Message;

  it('a school user starts one as multipart with two attachments; staff see it unread', async () => {
    const before = (await get<{ data: { count: number } }>('/api/company/conversations/unread', staff)).body
      .data.count;
    const started = await multipart(
      '/api/company/conversations/start',
      {
        subject: 'Student dates',
        message: '<img src=x onerror=alert(1)> and [link](javascript:alert(1))',
        attachments: [fileOf(pdfBytes('one'), 'one.pdf'), fileOf(pdfBytes('two'), 'two.pdf')],
      },
      school,
    );
    expect(started.status).toBe(201);
    thread = (started.body as { data: { conversation: Thread } }).data.conversation;
    expect(thread).toMatchObject({
      subject: 'Student dates',
      status: 'open',
      client: { id: w.oakwood.public_id },
    });
    expect(
      (await get<{ data: { count: number } }>('/api/company/conversations/unread', staff)).body.data.count,
    ).toBe(before + 1);
    const list = await get<{ data: { conversations: { items: { id: string; read: boolean }[] } } }>(
      '/api/company/conversations?search=Student%20dates',
      staff,
    );
    expect(list.body.data.conversations.items).toEqual([
      expect.objectContaining({ id: thread.id, read: false }),
    ]);
  });

  it('staff read it, its messages (text kept as written) and download an attachment', async () => {
    expect(
      (await get<{ data: { conversation: Thread } }>(`/api/company/conversations/${thread.id}`, staff))
        .status,
    ).toBe(200);
    const messages = await get<{ data: { messages: { items: Message[] } } }>(
      `/api/company/conversations/${thread.id}/messages`,
      staff,
    );
    first = messages.body.data.messages.items[0];
    expect(first.body).toBe('<img src=x onerror=alert(1)> and [link](javascript:alert(1))');
    expect(first.attachments.map((a) => a.name)).toEqual(['one.pdf', 'two.pdf']);
    // Two files: the one wanted is named.
    const ambiguous = await send(
      'POST',
      `/api/company/conversations/${thread.id}/messages/${first.id}/download`,
      staff,
      {},
    );
    expect(ambiguous.status).toBe(404);
    const res = await app.request(
      `/api/company/conversations/${thread.id}/messages/${first.id}/download`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${staff}`,
          'content-type': 'application/json',
          'cf-connecting-ip': uniqueIp(),
        },
        body: JSON.stringify({ attachment_id: first.attachments[1].id }),
      },
      { ...testEnv(), ...quiet },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('two.pdf');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdfBytes('two'));
  });

  it('staff reply as multipart, set the status; the school marks it unread, flags and archives it', async () => {
    const replied = await multipart(
      `/api/company/conversations/${thread.id}/messages/add`,
      { message: 'Noted, thanks.' },
      staff,
    );
    expect(replied.status).toBe(201);
    expect(
      (await send('PATCH', `/api/company/conversations/${thread.id}/status`, staff, { status: 'resolved' }))
        .status,
    ).toBe(200);
    expect(
      (await send('PATCH', `/api/company/conversations/${thread.id}/status`, staff, { status: 'closed' }))
        .status,
    ).toBe(422);
    expect((await send('PATCH', `/api/company/conversations/${thread.id}/unread`, school)).status).toBe(200);
    expect(
      (await send('PATCH', `/api/company/conversations/${thread.id}/flag`, school, { flagged: true })).status,
    ).toBe(200);
    expect(
      (await send('PATCH', `/api/company/conversations/${thread.id}/archive`, school, { archived: true }))
        .status,
    ).toBe(200);
    const archived = await get<{ data: { conversations: { items: { id: string; flagged: boolean }[] } } }>(
      '/api/company/conversations?folder=archived',
      school,
    );
    expect(archived.body.data.conversations.items).toEqual([
      expect.objectContaining({ id: thread.id, flagged: true }),
    ]);
  });

  it('refuses a reply without text, an executable, and a JSON body where multipart is the contract', async () => {
    const empty = await multipart(
      `/api/company/conversations/${thread.id}/messages/add`,
      { message: '  ' },
      staff,
    );
    expect(empty.status).toBe(422);
    const exe = await multipart(
      `/api/company/conversations/${thread.id}/messages/add`,
      { message: 'see', attachments: fileOf(exeBytes(), 'setup.exe') },
      staff,
    );
    expect(exe.status).toBe(422);
    expect((exe.body as ErrorEnvelope).errors[0].key).toBe('attachments');
    const json = await send('POST', `/api/company/conversations/${thread.id}/messages/add`, staff, {
      message: 'hi',
    });
    expect(json.status).toBe(415);
  });

  it('another company answers 404 on every id-taking call and sees none in its inbox', async () => {
    const base = `/api/company/conversations/${thread.id}`;
    const answers = [
      (await get(base, stranger)).status,
      (await get(`${base}/messages`, stranger)).status,
      (await multipart(`${base}/messages/add`, { message: 'x' }, stranger)).status,
      (await send('POST', `${base}/messages/${first.id}/download`, stranger, {})).status,
      (await send('PATCH', `${base}/status`, stranger, { status: 'open' })).status,
      (await send('PATCH', `${base}/unread`, stranger)).status,
      (await send('PATCH', `${base}/flag`, stranger, { flagged: true })).status,
      (await send('PATCH', `${base}/archive`, stranger, { archived: true })).status,
    ];
    expect(answers).toEqual(Array(answers.length).fill(404));
    const list = await get<{ data: { conversations: { items: unknown[] } } }>(
      '/api/company/conversations',
      stranger,
    );
    expect(list.body.data.conversations.items).toEqual([]);
  });

  it('the clients list "send message" starts one thread per client', async () => {
    const res = await send<{ data: { conversations: string[] } }>(
      'POST',
      '/api/company/conversations/start-bulk',
      staff,
      {
        subject: 'Renewal',
        message: 'Renewals open in June.',
        client_ids: [w.oakwood.public_id, w.maple.public_id],
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.conversations).toHaveLength(2);
  });
});
