import { describe, expect, it } from 'vitest';
import { verifyWebhook, webhookSignature } from '../../workers/domain/webhooks/signing';
import { crc32, hasValidChecksum, newApiKey } from '../../workers/domain/api-keys/token';

describe('Standard Webhooks signatures', () => {
  it('signs "id.timestamp.body" with the secret as the standard test vector says', async () => {
    const sig = await webhookSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(sig).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('a receiver accepts a fresh, matching signature and refuses a changed body or an old timestamp', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const now = new Date();
    const ts = Math.floor(now.getTime() / 1000);
    const signature = await webhookSignature(secret, 'msg_1', ts, '{"a":1}');
    const headers = { id: 'msg_1', timestamp: String(ts), signature };
    expect(await verifyWebhook(secret, headers, '{"a":1}', now)).toBe(true);
    expect(await verifyWebhook(secret, headers, '{"a":2}', now)).toBe(false);
    expect(await verifyWebhook(secret, headers, '{"a":1}', new Date(now.getTime() + 6 * 60 * 1000))).toBe(
      false,
    );
  });
});

describe('API key shape', () => {
  it('computes CRC-32 as zlib does', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
  });

  it('makes keys whose checksum is valid, and a changed character breaks it', async () => {
    const { key, hash, hint } = await newApiKey(true);
    expect(key.startsWith('ep_live_')).toBe(true);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.slice(8, 12)).toBe(hint);
    expect(hasValidChecksum(key)).toBe(true);
    const changed = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(hasValidChecksum(changed)).toBe(false);
    expect(hasValidChecksum('ep_live_short')).toBe(false);
  });
});
