import { Hono } from 'hono';
import type { Env } from '../env';
import { isProduction } from '../env';
import { createDb } from '../platform/db';
import { constantTimeEqual } from '../platform/crypto';
import { seedDemo } from '../../drizzle/seed/demo';

/**
 * Development-only routes, absent in production: `npm start` calls POST /__dev/seed (with the local
 * SESSION_SECRET) to load the demo data into an empty database through the same builders the tests use.
 */
export const devRoutes = new Hono<{ Bindings: Env }>()
  .use('*', async (c, next) => {
    if (isProduction(c.env)) return c.notFound();
    await next();
  })
  .post('/seed', async (c) => {
    const secret = c.req.header('x-dev-secret') ?? '';
    if (!c.env.SESSION_SECRET || !constantTimeEqual(secret, c.env.SESSION_SECRET))
      return c.text('Forbidden', 403);
    const result = await seedDemo(createDb(c.env.DB), c.env.REGION, c.env);
    return c.json(result);
  });
