import type { Submission } from '@conform-to/dom';
import { ValidationFailed } from '@server/domain/errors';
import { withFormErrors } from '~/lib/guards.server';

/** A domain error key (`rows.2.campus_id`) as the form names the field (`rows[2].campus_id`). */
export function formKey(key: string): string {
  return key.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

/** Runs an agreement save for a form: row errors land on the row's own field. */
export function saveAgreement<T>(submission: Submission<unknown>, run: () => Promise<T>) {
  return withFormErrors(submission, () =>
    run().catch((e) => {
      if (e instanceof ValidationFailed)
        throw new ValidationFailed(e.errors.map((x) => ({ ...x, key: formKey(x.key) })));
      throw e;
    }),
  );
}
