import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ZodError } from 'zod';
import { isDomainError, TooManyRequests, ValidationFailed, type FieldError } from '../domain/errors';
import { DEFAULT_LANGUAGE, formatMessage } from '../platform/i18n';
import { langOf } from './context';
import { BodyRefused } from './body';

/** The API's error envelope: `{ message, errors: [{ key, message }] }`, in the call's language. */
export function errorBody(message: string, errors: FieldError[] = [], lang: string = DEFAULT_LANGUAGE) {
  return {
    message: formatMessage(message, lang),
    errors: errors.map((e) => ({ key: e.key, message: formatMessage(e.message, lang) })),
  };
}

export function zodToFieldErrors(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({ key: issue.path.join('.') || '_', message: issue.message }));
}

/** The one place where errors become HTTP answers. Unknown errors are logged and answer a plain 500. */
export function handleApiError(err: Error, c: Context) {
  const lang = langOf(c);
  if (err instanceof ZodError) {
    const errors = zodToFieldErrors(err);
    return c.json(errorBody(errors[0]?.message ?? 'errors.invalid_data', errors, lang), 422);
  }
  if (isDomainError(err)) {
    if (err instanceof TooManyRequests) c.header('retry-after', String(err.retryAfterSeconds));
    const errors = err instanceof ValidationFailed ? err.errors : [];
    return c.json(
      errorBody(err.message, errors, lang),
      err.status as 401 | 403 | 404 | 409 | 422 | 429 | 503,
    );
  }
  if (err instanceof BodyRefused) {
    return c.json(errorBody(err.message, [{ key: err.key, message: err.message }], lang), err.status);
  }
  if (err instanceof HTTPException) {
    return c.json(errorBody(err.message || 'errors.generic', [], lang), err.status);
  }
  console.error('Unhandled API error', err);
  return c.json(errorBody('errors.try_later', [], lang), 500);
}
