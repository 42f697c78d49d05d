import { zValidator } from '@hono/zod-validator';
import type { MiddlewareHandler, ValidationTargets } from 'hono';
import type { ZodSchema } from 'zod';
import { ValidationFailed } from '../domain/errors';
import { declareBody, formObject, readJson, readMultipart, refuseUnknownFields } from './body';
import { zodToFieldErrors } from './errors';
import { recordSchema } from './openapi';

/**
 * zValidator with the API's error envelope: a failed parse becomes a ValidationFailed (422) with one
 * `{ key, message }` per problem. Handlers read the data only through `c.req.valid(target)`.
 *
 * A body (`json`, or `form` for multipart) is read through body.ts, never by the validator itself: a body
 * that is not JSON, or does not parse, is refused (415 / 400) instead of being validated as `{}`, and a
 * body none of whose fields the schema knows is a 422 (a `form` may also carry its `file`).
 */
export function valid<T extends ZodSchema, Target extends keyof ValidationTargets>(
  target: Target,
  schema: T,
) {
  const zod = zValidator(target, schema, (result) => {
    if (!result.success) throw new ValidationFailed(zodToFieldErrors(result.error as never));
  });
  const middleware =
    target === 'json' || target === 'form'
      ? (declareBody(
          (async (c, next) => {
            const body = target === 'json' ? await readJson(c) : await readMultipart(c);
            refuseUnknownFields(schema, body, target === 'form' ? ['file'] : []);
            const value = body instanceof FormData ? formObject(body) : body;
            const result = await schema.safeParseAsync(value);
            if (!result.success) throw new ValidationFailed(zodToFieldErrors(result.error));
            c.req.addValidatedData(target, result.data as object);
            await next();
          }) as MiddlewareHandler,
          [target === 'json' ? 'json' : 'multipart'],
        ) as unknown as typeof zod)
      : zod;
  recordSchema(middleware, target, schema);
  return middleware;
}
