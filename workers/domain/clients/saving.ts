import { ValidationFailed } from '../errors';
import { msg } from '../validation';

/**
 * 'Unable to save the client!' (spec 001 s.8): the message of every refused client save, made here once.
 * The domain's saves answer it with their field errors; both doors use it for input that did not parse.
 */
export const CLIENT_SAVE_FAILED = msg('clients.save_failed');

/** Runs a client save: a validation error comes out as 'Unable to save the client!' with its field errors. */
export async function savingClient<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ValidationFailed) throw new ValidationFailed(e.errors, CLIENT_SAVE_FAILED);
    throw e;
  }
}
