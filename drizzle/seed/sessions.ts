import { inArray, like } from 'drizzle-orm';
import { sessions, users } from '../schema';
import { bulkInsert, runBatch, type DB } from '../../workers/platform/db';
import { SESSION_LIMITS } from '../../workers/domain/auth/sessions';

/**
 * The demo users are also signed in elsewhere, so account details has sessions to show and end: a phone
 * a few minutes ago, a Windows laptop twenty minutes ago (and, for the senior admin, a script using the
 * API). Their tokens are unknown to anyone (the stored hash is not a hash of any token), so they can only
 * be looked at and ended. Sessions idle out after an hour, so every start of the demo renews them.
 */
const DEVICES = [
  {
    kind: 'web' as const,
    ip: '203.0.113.24',
    minutesAgo: 4,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  },
  {
    kind: 'web' as const,
    ip: '198.51.100.77',
    minutesAgo: 21,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  },
];
const SCRIPT = { kind: 'api' as const, ip: '192.0.2.10', minutesAgo: 9, userAgent: 'curl/8.5.0' };

/** Marks the demo's sessions, so a restart replaces them (a real token hash is 64 hex digits). */
const DEMO_MARK = 'demo-session:';

export async function seedDemoSessions(
  db: DB,
  emails: readonly string[],
  scriptEmail: string,
  now = new Date(),
): Promise<void> {
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [...emails]));
  const rows = people.flatMap((p) =>
    [...DEVICES, ...(p.email === scriptEmail ? [SCRIPT] : [])].map((d, i) => {
      const seen = new Date(now.getTime() - d.minutesAgo * 60_000);
      return {
        token_hash: `${DEMO_MARK}${p.id}:${i}`,
        user_id: p.id,
        kind: d.kind,
        stage: 'active' as const,
        ip: d.ip,
        user_agent: d.userAgent,
        created_at: new Date(seen.getTime() - 2 * 60 * 60_000),
        last_seen_at: seen,
        expires_at: new Date(seen.getTime() + SESSION_LIMITS.absoluteMs - 2 * 60 * 60_000),
      };
    }),
  );
  await runBatch(db, [
    db.delete(sessions).where(like(sessions.token_hash, `${DEMO_MARK}%`)),
    ...bulkInsert(db, sessions, rows),
  ]);
}
