import { sql } from 'drizzle-orm';
import { rateLimits } from '../../drizzle/schema';
import type { DB } from './db';

/**
 * A fixed-window counter in D1. Returns the count after this hit; the caller compares it to its limit.
 * One statement (upsert + returning), so concurrent hits cannot both read a stale count.
 */
export async function hit(db: DB, key: string, windowMs: number, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, window_start: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.window_start} < ${windowStart.getTime()} then 1 else ${rateLimits.count} + 1 end`,
        window_start: sql`case when ${rateLimits.window_start} < ${windowStart.getTime()} then ${now.getTime()} else ${rateLimits.window_start} end`,
      },
    })
    .returning({ count: rateLimits.count });
  return row.count;
}

/** Current count without counting a hit. */
export async function peek(db: DB, key: string, windowMs: number, now: Date): Promise<number> {
  const rows = await db
    .select()
    .from(rateLimits)
    .where(sql`${rateLimits.key} = ${key}`)
    .limit(1);
  const row = rows[0];
  if (!row || row.window_start.getTime() < now.getTime() - windowMs) return 0;
  return row.count;
}

export async function clear(db: DB, key: string) {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
