import { Hono, type MiddlewareHandler } from 'hono';
import type { Env } from '../env';
import { isProduction } from '../env';
import { createDb } from '../platform/db';
import { constantTimeEqual } from '../platform/crypto';
import { seedDemo } from '../../drizzle/seed/demo';

/**
 * Development-only routes, absent in production: `npm start` calls POST /__dev/seed (with the local
 * SESSION_SECRET) to load the demo data into an empty database through the same builders the tests use.
 */
/**
 * Development routes' guard: absent in production; elsewhere only for callers holding the local
 * SESSION_SECRET (npm start, the browser tests and the benchmarks), sent as x-dev-secret.
 */
export const devOnly: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  if (isProduction(c.env)) return c.notFound();
  const secret = c.req.header('x-dev-secret') ?? '';
  if (!c.env.SESSION_SECRET || !constantTimeEqual(secret, c.env.SESSION_SECRET))
    return c.text('Forbidden', 403);
  await next();
};

export const devRoutes = new Hono<{ Bindings: Env }>().use('/seed', devOnly).post('/seed', async (c) => {
  const result = await seedDemo(createDb(c.env.DB), c.env.REGION, c.env);
  return c.json(result);
});
