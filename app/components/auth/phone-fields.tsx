import type { FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { Field } from '~/components/forms';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/** A phone number as the spec takes it: the 2-letter phone country beside the digits of the number. */
export function PhoneFields({
  country,
  number,
  labels,
  autoFocus,
}: {
  country: AnyField;
  number: AnyField;
  labels: { country: ReactNode; countryHint: ReactNode; number: ReactNode };
  autoFocus?: boolean;
}) {
  return (
    <div className="grid grid-cols-[6.5rem_1fr] items-start gap-3">
      <Field
        label={labels.country}
        field={country}
        inputProps={{
          autoComplete: 'country',
          maxLength: 2,
          style: { textTransform: 'uppercase' },
          autoFocus,
        }}
      />
      <Field
        label={labels.number}
        field={number}
        type="tel"
        inputProps={{ autoComplete: 'tel-national', inputMode: 'numeric' }}
      />
      <p className="col-span-2 -mt-1 text-xs text-slate-500">{labels.countryHint}</p>
    </div>
  );
}
