import { Hono } from 'hono';
import { drizzle } from 'drizzle-orm/d1';
import { eq } from 'drizzle-orm';
import * as schema from '../../drizzle/schema';
import { users } from '../../drizzle/schema';
import { seedMessageVolume } from '../../drizzle/seed/message-volume';
import type { Env } from '../env';
import { createDb, type DB } from '../platform/db';
import { loadActor } from '../domain/access/actor';
import type { ActorCtx } from '../domain/context';
import { inboxQuerySchema } from '../domain/conversations/schema';
import { listConversations, unreadCount } from '../domain/conversations/inbox';
import { devOnly } from './dev';

/** A property of a runtime object, its methods bound to it (they refuse another `this`). */
function own(target: object, key: string | symbol) {
  const value = Reflect.get(target, key, target) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}

const userId = async (db: DB, email: string) =>
  (await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())))[0]?.id;

/**
 * Development-only (devOnly): the message centre benchmark's helpers.
 * - POST /__dev/conversations/seed { conversations, per_thread, company_email, school_email, readers }:
 *   many threads of the staff user's selected company (drizzle/seed/message-volume.ts).
 * - POST /__dev/conversations/explain { email, filters }: EXPLAIN QUERY PLAN of every statement the inbox
 *   (its page and count) and the unread count run for a user and the inbox's filters, as they run them.
 */
export const devConversations = new Hono<{ Bindings: Env }>()
  .use('*', devOnly)
  .post('/seed', async (c) => {
    const input = (await c.req.json()) as {
      conversations?: number;
      per_thread?: number;
      company_email?: string;
      school_email?: string;
      readers?: string[];
    };
    const db = createDb(c.env.DB);
    const staff = await userId(db, input.company_email ?? 'admin@demo.test');
    const school = await userId(db, input.school_email ?? 'school.admin@demo.test');
    if (!staff || !school) return c.json({ message: 'No such user' }, 404);
    const actor = await loadActor(db, staff);
    if (!actor?.selected_company_id) return c.json({ message: 'The staff user has no company' }, 400);
    const readers = await Promise.all((input.readers ?? []).map((e) => userId(db, e)));
    const result = await seedMessageVolume(db, {
      companyId: actor.selected_company_id,
      staffUserId: staff,
      schoolUserId: school,
      conversations: Math.min(Math.max(input.conversations ?? 10_000, 1), 100_000),
      perThread: Math.min(Math.max(input.per_thread ?? 10, 1), 50),
      readers: readers.filter((id): id is number => !!id),
    });
    return c.json(result);
  })
  .post('/explain', async (c) => {
    const input = (await c.req.json()) as { email: string; filters?: Record<string, string> };
    const db = createDb(c.env.DB);
    const id = await userId(db, input.email);
    if (!id) return c.json({ message: 'No such user' }, 404);
    const actor = await loadActor(db, id);
    if (!actor) return c.json({ message: 'The user cannot act' }, 400);
    // The statements as the inbox builds them and runs them (batches too): a database binding that
    // writes down each statement it is given with its values.
    const asked: { sql: string; params: unknown[] }[] = [];
    const d1 = c.env.DB;
    const recording = new Proxy(d1, {
      get(target, key) {
        if (key !== 'prepare') return own(target, key);
        return (query: string) => {
          const statement = target.prepare(query);
          return new Proxy(statement, {
            get(st, k) {
              if (k !== 'bind') return own(st, k);
              return (...params: unknown[]) => {
                asked.push({ sql: query, params });
                return st.bind(...params);
              };
            },
          });
        };
      },
    });
    const logged = drizzle(recording, { schema }) as unknown as DB;
    const ctx: ActorCtx = { db: logged, env: c.env, now: new Date(), actor, lang: 'en' };
    await listConversations(ctx, inboxQuerySchema.parse(input.filters ?? {}));
    const inbox = asked.splice(0);
    await unreadCount(ctx);
    const unread = asked.splice(0);
    const plans: Record<string, string[][]> = {};
    for (const [name, queries] of [
      ['inbox', inbox],
      ['unread', unread],
    ] as const) {
      plans[name] = [];
      for (const q of queries) {
        const { results } = await c.env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
          .bind(...q.params)
          .all<{ detail: string }>();
        plans[name].push(results.map((r) => r.detail));
      }
    }
    return c.json(plans);
  });
