import { Form, type FormProps } from '@remix-run/react';
import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
import { useRootData } from '~/root';
import { useMessage } from '~/lib/messages';

/** The CSRF token every state-changing form carries (checked by the Worker's front door). */
export function CsrfInput() {
  const { csrfToken } = useRootData();
  return <input type="hidden" name="_csrf" value={csrfToken} />;
}

/** A Remix form that always carries the CSRF token. */
export const AppForm = forwardRef<HTMLFormElement, FormProps>(function AppForm({ children, ...props }, ref) {
  return (
    <Form ref={ref} {...props}>
      <CsrfInput />
      {children}
    </Form>
  );
});

export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const m = useMessage();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="mt-1.5 space-y-0.5 text-sm text-red-700">
      {errors.map((e) => (
        <li key={e}>{m(e)}</li>
      ))}
    </ul>
  );
}

const inputClass =
  'block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-primary-600 aria-[invalid=true]:ring-red-500 sm:text-sm';

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-slate-700">
      {children}
    </label>
  );
}

/** A labelled input bound to a Conform field, with its translated errors. */
export function Field({
  label,
  field,
  type = 'text',
  hint,
  inputProps = {},
}: {
  label: ReactNode;
  field: AnyField;
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'date';
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}) {
  const props = getInputProps(field, { type });
  return (
    <div>
      <Label htmlFor={field.id}>{label}</Label>
      <input {...props} {...inputProps} key={props.key} className={inputClass} />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A labelled textarea bound to a Conform field. */
export function TextAreaField({
  label,
  field,
  rows = 4,
}: {
  label: ReactNode;
  field: AnyField;
  rows?: number;
}) {
  const props = getTextareaProps(field);
  return (
    <div>
      <Label htmlFor={field.id}>{label}</Label>
      <textarea {...props} key={props.key} rows={rows} className={inputClass} />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A labelled select bound to a Conform field; `options` are value and label pairs. */
export function SelectField({
  label,
  field,
  options,
  placeholder,
  hint,
}: {
  label: ReactNode;
  field: AnyField;
  options: readonly { value: string; label: string }[];
  /** A first, empty option ("Choose…"); without it the first option is preselected. */
  placeholder?: string;
  hint?: ReactNode;
}) {
  const props = getSelectProps(field);
  return (
    <div>
      <Label htmlFor={field.id}>{label}</Label>
      <select {...props} key={props.key} className={inputClass}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A checkbox with its label on the right, bound to a Conform boolean field. */
export function CheckboxField({
  label,
  field,
  hint,
}: {
  label: ReactNode;
  field: AnyField;
  hint?: ReactNode;
}) {
  const props = getInputProps(field, { type: 'checkbox' });
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          {...props}
          key={props.key}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-primary-700 focus:ring-primary-600"
        />
        <label htmlFor={field.id} className="text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      {hint ? <p className="ml-7 mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** Form-level errors (not tied to one field). */
export function FormErrors({ errors }: { errors?: string[] | null }) {
  const m = useMessage();
  if (!errors?.length) return null;
  return (
    <div role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
      {errors.map((e) => (
        <p key={e}>{m(e)}</p>
      ))}
    </div>
  );
}

export { inputClass };
