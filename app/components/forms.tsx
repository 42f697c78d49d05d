/**
 * The form kit (docs/page-kit.md): one Field wrapper (label, hint, errors), and the controls in it: text
 * inputs, textarea, Select and Checkbox, each either bound to a Conform field (`…Field`, here) or plain
 * (fields.tsx, re-exported here; for forms Conform does not manage, such as a list's filter bar). No page
 * writes the input class itself.
 */
import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { Checkbox, ErrorList, FieldShell, Input, Select, TextArea, type Option } from './fields';
import { DateInput, type DateInputProps } from './ui/date-input';

export * from './fields';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyField = FieldMetadata<any, any, string[]>;

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
  type?: 'text' | 'email' | 'password' | 'tel' | 'number' | 'date' | 'search' | 'url';
  hint?: ReactNode;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}) {
  const { key, ...props } = getInputProps(field, { type });
  return (
    <FieldShell id={field.id} label={label} hint={hint} errors={field.errors} errorId={field.errorId}>
      {type === 'date' ? (
        // A day is typed as the pages write it, DD/MM/YYYY, never in the browser's own order.
        <DateInput key={key} {...props} {...(inputProps as DateInputProps)} id={field.id} />
      ) : (
        <Input key={key} {...props} {...inputProps} />
      )}
    </FieldShell>
  );
}

/**
 * The messages of a field by its name, for a field the form's schema types loosely (a file input, a set of
 * checkboxes named in a loop): `errorsOf(fields, 'file')`.
 */
export function errorsOf(fields: object, name: string): string[] | undefined {
  return (fields as Record<string, { errors?: string[] } | undefined>)[name]?.errors;
}

/** A field by its name, for a form whose schema types its fields loosely (a union of intents, say). */
export function fieldOf(fields: object, name: string): AnyField {
  return (fields as Record<string, AnyField>)[name];
}

/** A labelled textarea bound to a Conform field. */
export function TextAreaField({
  label,
  field,
  rows = 4,
  hint,
}: {
  label: ReactNode;
  field: AnyField;
  rows?: number;
  hint?: ReactNode;
}) {
  const { key, ...props } = getTextareaProps(field);
  return (
    <FieldShell id={field.id} label={label} hint={hint} errors={field.errors} errorId={field.errorId}>
      <TextArea key={key} {...props} rows={rows} />
    </FieldShell>
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
  options: readonly Option[];
  /** A first, empty option ("Choose…"); without it the first option is preselected. */
  placeholder?: string;
  hint?: ReactNode;
}) {
  const { key, ...props } = getSelectProps(field);
  return (
    <FieldShell id={field.id} label={label} hint={hint} errors={field.errors} errorId={field.errorId}>
      <Select key={key} {...props} options={options} placeholder={placeholder} />
    </FieldShell>
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
  const { key, ...props } = getInputProps(field, { type: 'checkbox' });
  return (
    <div>
      <Checkbox key={key} {...props} label={label} hint={hint} />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}
