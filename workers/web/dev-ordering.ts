import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import { campuses, users } from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import type { Env } from '../env';
import { createDb } from '../platform/db';
import { loadActor } from '../domain/access/actor';
import { productsAvailableForCampus } from '../domain/contracts/service';
import { createBatch } from '../domain/enrollments/batches';
import { openBatch, stageEnrollments } from '../domain/enrollments/staging';
import type { ActorCtx } from '../domain/context';
import { devOnly } from './dev';

/**
 * Development-only (devOnly: absent in production, needs the local SESSION_SECRET): puts an
 * open batch of valid applicants into a user's cart through the ordering domain (createBatch,
 * stageEnrollments, openBatch), so browser tests and benchmarks of checkout need not drive the order
 * pages. POST /__dev/ordering/open-batch { email, campus?, applicants?, with_email? }.
 */
export const devOrdering = new Hono<{ Bindings: Env }>().use('*', devOnly).post('/open-batch', async (c) => {
  const input = (await c.req.json()) as {
    email: string;
    campus?: string;
    applicants?: number;
    with_email?: boolean;
    first_names?: string[];
  };
  const db = createDb(c.env.DB);
  const [user] = await db.select().from(users).where(eq(users.email, input.email.toLowerCase()));
  if (!user) return c.json({ message: 'No such user' }, 404);
  const actor = await loadActor(db, user.id);
  if (!actor) return c.json({ message: 'The user cannot act' }, 400);
  const ctx: ActorCtx = { db, env: c.env, now: new Date(), actor, lang: 'en' };
  const campusRows = await db
    .select()
    .from(campuses)
    .where(input.campus ? eq(campuses.name, input.campus) : eq(campuses.client_id, user.client_id ?? -1));
  const campus = campusRows[0];
  if (!campus) return c.json({ message: 'No such campus' }, 404);
  const [contract] = await productsAvailableForCampus(ctx, campus.id, { cartContractIds: [] });
  if (!contract) return c.json({ message: 'The campus has no contract to order under' }, 400);
  const batch = await createBatch(ctx, {
    campus_id: campus.public_id,
    contract_id: contract.id,
    source: 'single',
  });
  const [fr, gb] = await Promise.all([countryId(db, 'FR'), countryId(db, 'GB')]);
  const start = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const end = new Date(Date.now() + 44 * 86_400_000).toISOString().slice(0, 10);
  const count = Math.min(Math.max(input.applicants ?? 2, 1), 5000);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const names = input.first_names ?? [];
  const rows = Array.from({ length: count }, (_, i) => ({
    position: i + 1,
    raw: {
      type: 'student',
      first_name:
        names[i] ?? `Student${letters[i % 26]}${letters[Math.floor(i / 26) % 26]}`.replace(/\d/g, ''),
      last_name: `Tester${letters[Math.floor(i / 676) % 26]}`,
      date_of_birth: '2006-05-17',
      email: input.with_email === false ? '' : `student.${i + 1}.${batch.public_id}@example.test`,
      residence_country_id: String(fr),
      destination_country_id: String(gb),
      start_date: start,
      end_date: end,
    },
  }));
  const staged = await stageEnrollments(ctx, batch, rows);
  const opened = await openBatch(ctx, batch);
  return c.json({ batch_id: opened.public_id, status: opened.status, ...staged });
});
