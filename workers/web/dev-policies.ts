import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { users } from '../../drizzle/schema';
import { seedPolicyVolume } from '../../drizzle/seed/policy-volume';
import type { Env } from '../env';
import { createDb } from '../platform/db';
import { loadActor } from '../domain/access/actor';
import type { ActorCtx } from '../domain/context';
import { policyListQuerySchema } from '../domain/policies/list-query';
import { listStatements } from '../domain/policies/service';
import { devOnly } from './dev';

/**
 * Development-only (devOnly): the insureds benchmark's helpers.
 * - POST /__dev/policies/seed { count, clients, campuses }: many issued policies (drizzle/seed/policy-volume.ts).
 * - POST /__dev/policies/explain { email, filters }: EXPLAIN QUERY PLAN of the list's two statements (the
 *   page's ids and the count) for a user and the list's filters, as the list runs them.
 */
export const devPolicies = new Hono<{ Bindings: Env }>()
  .use('*', devOnly)
  .post('/seed', async (c) => {
    const input = (await c.req.json()) as {
      count?: number;
      clients?: number;
      campuses?: number;
      email?: string;
    };
    const db = createDb(c.env.DB);
    const [user] = await db
      .select()
      .from(users)
      .where(eq(users.email, (input.email ?? 'senior.admin@demo.test').toLowerCase()));
    const result = await seedPolicyVolume(db, {
      count: Math.min(Math.max(input.count ?? 100_000, 1), 500_000),
      clients: Math.min(Math.max(input.clients ?? 5, 1), 26),
      campuses: Math.min(Math.max(input.campuses ?? 3, 1), 9),
      createdBy: user.id,
    });
    return c.json(result);
  })
  .post('/explain', async (c) => {
    const input = (await c.req.json()) as { email: string; filters?: Record<string, string> };
    const db = createDb(c.env.DB);
    const [user] = await db.select().from(users).where(eq(users.email, input.email.toLowerCase()));
    if (!user) return c.json({ message: 'No such user' }, 404);
    const actor = await loadActor(db, user.id);
    if (!actor) return c.json({ message: 'The user cannot act' }, 400);
    const ctx: ActorCtx = { db, env: c.env, now: new Date(), actor, lang: 'en' };
    const statements = listStatements(ctx, policyListQuerySchema.parse(input.filters ?? {}));
    const plans: Record<string, string[]> = {};
    for (const [name, query] of [
      ['rows', statements.rows(25, 0)],
      ['count', statements.count],
    ] as const) {
      const { sql: text, params } = query.toSQL();
      const { results } = await c.env.DB.prepare(`EXPLAIN QUERY PLAN ${text}`)
        .bind(...params)
        .all<{ detail: string }>();
      plans[name] = results.map((r) => r.detail);
    }
    return c.json(plans);
  });
