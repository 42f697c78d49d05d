/**
 * The plain half of the form kit (docs/page-kit.md): the form element with its CSRF token, the Field
 * wrapper (label, hint, errors) and the controls (Input, TextArea, Select, Checkbox) for forms Conform
 * does not manage, such as a list's filter bar. Free of Conform, so a page that only lists and filters
 * does not load it; forms.tsx adds the Conform-bound fields and re-exports all of this.
 */
import { Form, type FormProps } from '@remix-run/react';
import {
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
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

/** The look of every text input, textarea and select (use the components below rather than this). */
export const inputClass =
  'block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-primary-600 aria-[invalid=true]:ring-red-500 sm:text-sm';

const checkboxClass = 'h-4 w-4 rounded border-slate-300 text-primary-700 focus:ring-primary-600';

export function Label({ htmlFor, children }: { htmlFor: string; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-slate-700">
      {children}
    </label>
  );
}

export function Hint({
  id,
  children,
  className = '',
}: {
  id?: string;
  children?: ReactNode;
  className?: string;
}) {
  return children ? (
    <p id={id} className={`mt-1 text-xs text-slate-500 ${className}`}>
      {children}
    </p>
  ) : null;
}

/** The one field wrapper: the label above the control, a hint and the translated errors under it. */
export function FieldShell({
  id,
  label,
  hint,
  errors,
  errorId,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[] | null;
  errorId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      <Hint>{hint}</Hint>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/** A plain text input with the form look. */
export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className = '', ...props },
  ref,
) {
  return <input ref={ref} {...props} className={`${inputClass} ${className}`} />;
});

/** A plain textarea with the form look. */
export function TextArea({ className = '', ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${inputClass} ${className}`} />;
}

export interface Option {
  value: string;
  label: string;
}

/** The one select: value and label pairs, and an optional first empty option ("Choose…"). */
export function Select({
  options,
  placeholder,
  className = '',
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  options?: readonly Option[];
  /** A first, empty option; without it the first option is preselected. */
  placeholder?: string;
}) {
  return (
    <select {...props} className={`${inputClass} ${className}`}>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options?.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {children}
    </select>
  );
}

/** The one checkbox: the box, its label on the right, and an optional hint under the label. */
export const Checkbox = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { label?: ReactNode; hint?: ReactNode }
>(function Checkbox({ label, hint, className = '', id, ...props }, ref) {
  if (label === undefined) {
    return <input ref={ref} id={id} type="checkbox" {...props} className={`${checkboxClass} ${className}`} />;
  }
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          {...props}
          className={`mt-0.5 ${checkboxClass} ${className}`}
        />
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          {label}
        </label>
      </div>
      <Hint className="ml-7">{hint}</Hint>
    </div>
  );
});

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
