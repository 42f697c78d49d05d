/**
 * Calls the Worker's front door (workers/http.ts, without a Remix build) with the test file's real
 * bindings, as an API client would. Test files using it start with
 * `vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'))`.
 */
import { createApp } from '../../workers/http';
import type { Env } from '../../workers/env';
import { DEMO_PASSWORD } from '../../drizzle/seed/builders';
import { lastPinFor, testEnv, uniqueIp } from './world';

const app = createApp();

export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ErrorEnvelope {
  message: string;
  errors: { key: string; message: string }[];
}

export interface CallOptions {
  method?: string;
  /** A body sent as JSON. */
  json?: unknown;
  /** A body sent as it is, with `contentType`. */
  raw?: string;
  contentType?: string;
  token?: string | null;
  headers?: Record<string, string>;
  /** The caller's address (cf-connecting-ip); each call gets its own unless given. */
  ip?: string;
  /** Bindings to change for this call, e.g. `{ MAINTENANCE: '1' }`. */
  env?: Partial<Env>;
}

export async function call<T = unknown>(path: string, opts: CallOptions = {}): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { 'cf-connecting-ip': opts.ip ?? uniqueIp(), ...opts.headers };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.raw !== undefined) {
    if (opts.contentType) headers['content-type'] = opts.contentType;
    body = opts.raw;
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await app.request(
    path,
    { method: opts.method ?? 'GET', headers, body },
    {
      ...testEnv(),
      ...opts.env,
    },
  );
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the test sees the text and fails on its own terms.
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** Signs in through the API as a client does: password, then the same call with the emailed PIN. */
export async function apiToken(email: string, password = DEMO_PASSWORD): Promise<string> {
  const ip = uniqueIp();
  const first = await call('/api/company/auth/sign-in', { method: 'POST', json: { email, password }, ip });
  if (first.status !== 202)
    throw new Error(`sign-in answered ${first.status}: ${JSON.stringify(first.body)}`);
  const pin = await lastPinFor(email);
  const second = await call<{ data: { token: string } }>('/api/company/auth/sign-in', {
    method: 'POST',
    json: { email, password, pin },
    ip,
  });
  if (second.status !== 200) {
    throw new Error(`sign-in with PIN answered ${second.status}: ${JSON.stringify(second.body)}`);
  }
  return second.body.data.token;
}
