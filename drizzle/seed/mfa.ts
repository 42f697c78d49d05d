import { inArray } from 'drizzle-orm';
import { mfaEvents, users, type MFA_EVENTS, type PIN_PURPOSES } from '../schema';
import { bulkInsert, runBatch, type DB } from '../../workers/platform/db';

/**
 * The demo school's MFA activity (GET clients/{id}/mfa_activities): a fortnight of sign-ins of its two
 * staff, by PIN sent to their email, with a mistyped PIN, one that expired before it was typed, one typed
 * wrong until it locked, and a password reset by phone. Times are counted back from the seeding.
 */
const LAPTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

type Step = [
  minutesAgo: number,
  event: (typeof MFA_EVENTS)[number],
  purpose?: (typeof PIN_PURPOSES)[number],
  channel?: 'email' | 'phone',
];

const HISTORY: Record<'master' | 'employee', { ip: string; userAgent: string; steps: Step[] }> = {
  master: {
    ip: '203.0.113.24',
    userAgent: LAPTOP,
    steps: [
      [13 * 1440 + 30, 'sent'],
      [13 * 1440 + 28, 'verified'],
      [9 * 1440 + 95, 'sent'],
      [9 * 1440 + 93, 'failed'],
      [9 * 1440 + 92, 'verified'],
      [6 * 1440 + 400, 'sent', 'reset_phone', 'phone'],
      [6 * 1440 + 398, 'verified', 'reset_phone', 'phone'],
      [6 * 1440 + 396, 'sent'],
      [6 * 1440 + 395, 'verified'],
      [2 * 1440 + 60, 'sent'],
      [2 * 1440 + 45, 'expired'],
      [2 * 1440 + 44, 'sent'],
      [2 * 1440 + 43, 'verified'],
    ],
  },
  employee: {
    ip: '198.51.100.77',
    userAgent: PHONE,
    steps: [
      [11 * 1440 + 200, 'sent'],
      [11 * 1440 + 199, 'verified'],
      [4 * 1440 + 20, 'sent'],
      [4 * 1440 + 19, 'failed'],
      [4 * 1440 + 18, 'failed'],
      [4 * 1440 + 17, 'failed'],
      [4 * 1440 + 16, 'failed'],
      [4 * 1440 + 15, 'locked'],
      [4 * 1440 + 10, 'sent'],
      [4 * 1440 + 9, 'verified'],
      [1 * 1440 + 300, 'sent'],
      [1 * 1440 + 299, 'verified'],
    ],
  },
};

export async function seedDemoMfaActivity(
  db: DB,
  emails: { master: string; employee: string },
  now = new Date(),
): Promise<void> {
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, [emails.master, emails.employee]));
  const rows = (['master', 'employee'] as const).flatMap((who) => {
    const person = people.find((p) => p.email === emails[who]);
    if (!person) return [];
    const { ip, userAgent, steps } = HISTORY[who];
    return steps.map(([minutesAgo, event, purpose = 'login', channel = 'email']) => ({
      user_id: person.id,
      event,
      purpose,
      channel,
      ip,
      user_agent: userAgent,
      created_at: new Date(now.getTime() - minutesAgo * 60_000),
    }));
  });
  await runBatch(db, bulkInsert(db, mfaEvents, rows));
}
