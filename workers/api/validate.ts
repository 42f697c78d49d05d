import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodSchema } from 'zod';
import { ValidationFailed } from '../domain/errors';
import { zodToFieldErrors } from './errors';
import { recordSchema } from './openapi';

/**
 * zValidator with the API's error envelope: a failed parse becomes a ValidationFailed (422) with one
 * `{ key, message }` per problem. Handlers read the data only through `c.req.valid(target)`.
 */
export function valid<T extends ZodSchema, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) throw new ValidationFailed(zodToFieldErrors(result.error as never));
  });
  recordSchema(middleware, target, schema);
  return middleware;
}
