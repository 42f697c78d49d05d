/**
 * POST /__dev/jobs/give-up (development only): its body is read as the API reads one (workers/api/body.ts),
 * so a body it cannot take is a 415, one it cannot read a 400 and one without a job a 422, never a 500.
 */
import { describe, expect, it, vi } from 'vitest';
import { call, type ErrorEnvelope } from '../support/api';
import { testEnv } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const headers = () => ({ 'x-dev-secret': testEnv().SESSION_SECRET });
const giveUp = (opts: { json?: unknown; raw?: string; contentType?: string }) =>
  call<ErrorEnvelope>('/__dev/jobs/give-up', { method: 'POST', headers: headers(), ...opts });

describe('POST /__dev/jobs/give-up', () => {
  it('refuses a body it cannot take or read with 415 or 400', async () => {
    const text = await giveUp({ raw: 'job=abc', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.errors[0].key).toBe('body');
    const broken = await giveUp({ raw: '{"job":', contentType: 'application/json' });
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0].key).toBe('body');
  });

  it('asks for the job (422) and answers 404 for a job that does not exist', async () => {
    const none = await giveUp({ json: { job: '' } });
    expect(none.status).toBe(422);
    expect(none.body.errors.map((e) => e.key)).toEqual(['job']);
    expect((await giveUp({ json: { job: 'nosuchjob' } })).status).toBe(404);
  });

  it('needs the local secret', async () => {
    const r = await call('/__dev/jobs/give-up', { method: 'POST', json: { job: 'nosuchjob' } });
    expect(r.status).toBe(403);
  });
});
