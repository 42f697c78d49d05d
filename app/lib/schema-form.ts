/**
 * `useSchemaForm`: Conform's `useForm` with its zod schema loaded when the person first uses the form
 * (focus or pointer in it), not with the page. zod, `@conform-to/zod` and the schema module are about 20 KB
 * gzipped; a page that is read and not edited never loads them (docs/page-kit.md, "A form that validates in
 * the browser").
 *
 * Until the schema has loaded, the browser's own checks apply (the constraints, computed on the server by
 * `constraintsOf` in the loader) and the server validates on submit, as without JavaScript. Once loaded,
 * fields are checked as they are left, with the same messages the server gives.
 */
import { parse, useForm, type Submission } from '@conform-to/react';
import { useCallback, useEffect, useRef } from 'react';
import type { ZodTypeAny, input, output } from 'zod';

type ConformOptions<S extends ZodTypeAny> = Parameters<typeof useForm<input<S>, output<S>, string[]>>[0];
/** The browser checks of a form's fields, as `constraintsOf(schema)` computes them in a loader. */
export type Constraints = ConformOptions<ZodTypeAny>['constraint'];
type Validator = (formData: FormData) => Submission<Record<string, unknown>, string[], unknown>;

export type SchemaFormOptions<S extends ZodTypeAny> = Omit<ConformOptions<S>, 'onValidate' | 'id'> & {
  /** The form's id; the schema loads on the first focus or pointer press inside the form with this id. */
  id: string;
  /** Loads the schema: `() => import('@server/domain/x/schema').then((m) => m.xSchema)`. */
  schema: () => Promise<S>;
};

/** The schema's check, with days typed as DD/MM/YYYY read first, as the server reads them (typed-days.ts). */
function loadValidator<S extends ZodTypeAny>(schema: () => Promise<S>): Promise<Validator> {
  return Promise.all([import('@conform-to/zod'), import('@server/domain/typed-days'), schema()]).then(
    ([{ parseWithZod }, { readTypedDays }, loaded]) =>
      (formData: FormData) =>
        parseWithZod(readTypedDays(formData, loaded), { schema: loaded }) as ReturnType<Validator>,
  );
}

/** Everything passes: the server decides (the submission goes through unchanged). */
function passThrough(formData: FormData) {
  return parse(formData, { resolve: (value) => ({ value }) });
}

export function useSchemaForm<S extends ZodTypeAny>({ schema, id, ...options }: SchemaFormOptions<S>) {
  const validator = useRef<Validator | null>(null);
  const load = useRef(schema);
  load.current = schema;

  useEffect(() => {
    let started = false;
    const start = (event: Event) => {
      const form = (event.target as Element | null)?.closest?.('form');
      if (started || !form || form.id !== id) return;
      started = true;
      loadValidator(load.current).then(
        (v) => (validator.current = v),
        () => (started = false), // offline or a new deployment: try again on the next use
      );
    };
    document.addEventListener('focusin', start);
    document.addEventListener('pointerdown', start);
    // A field focused on its own (autoFocus) before this effect ran.
    if (document.activeElement) start({ target: document.activeElement } as unknown as Event);
    return () => {
      document.removeEventListener('focusin', start);
      document.removeEventListener('pointerdown', start);
    };
  }, [id]);

  const onValidate = useCallback(
    ({ formData }: { formData: FormData }) =>
      (validator.current ?? passThrough)(formData) as Submission<input<S>, string[], output<S>>,
    [],
  );

  return useForm<input<S>, output<S>, string[]>({ ...options, id, onValidate } as ConformOptions<S>);
}
