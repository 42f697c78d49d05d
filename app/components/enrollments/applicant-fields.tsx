import type { FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { APPLICANT_TYPES, GENDERS } from '@db/enums';
import { Field, SelectField } from '~/components/forms';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

export interface CountryOption {
  id: number;
  name: string;
  abbreviation: string;
  dial_code: string | null;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">{title}</legend>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">{children}</div>
    </fieldset>
  );
}

/**
 * Every applicant field of spec 001 s.3, bound to a Conform form: type and gender and the countries as
 * selects, dates as date inputs. A family member picks the student of the order it travels with; the
 * choice is offered when the type is "immediate family member" (always, without JavaScript).
 */
export function ApplicantFields({
  fields,
  countries,
  students,
  showDependency,
}: {
  fields: Record<string, AnyField>;
  countries: readonly CountryOption[];
  students: readonly { id: string; name: string }[];
  showDependency: boolean;
}) {
  const { t } = useTranslation();
  const f = (name: string) => fields[name]!;
  const label = (name: string) => t(`order.fields.${name}`);
  const countryOptions = countries.map((c) => ({ value: String(c.id), label: c.name }));
  const phoneCountries = countries.map((c) => ({
    value: c.abbreviation,
    label: c.dial_code ? `${c.name} (${c.dial_code.startsWith('+') ? '' : '+'}${c.dial_code})` : c.name,
  }));
  const choose = t('order.add.choose');
  return (
    <div className="space-y-8">
      <Section title={t('order.add.sections.person')}>
        <SelectField
          label={label('type')}
          field={f('type')}
          options={APPLICANT_TYPES.map((v) => ({ value: v, label: t(`order.types.${v}`) }))}
        />
        <Field label={label('first_name')} field={f('first_name')} inputProps={{ autoComplete: 'off' }} />
        <Field label={label('last_name')} field={f('last_name')} inputProps={{ autoComplete: 'off' }} />
        <Field label={label('date_of_birth')} field={f('date_of_birth')} type="date" />
        <SelectField
          label={label('gender')}
          field={f('gender')}
          placeholder={choose}
          options={GENDERS.map((v) => ({ value: v, label: t(`order.genders.${v}`) }))}
        />
        {showDependency ? (
          <SelectField
            label={label('dependency_id')}
            field={f('dependency_id')}
            placeholder={choose}
            options={students.map((s) => ({ value: s.id, label: s.name }))}
            hint={students.length ? t('order.add.dependency_hint') : t('order.add.no_students')}
          />
        ) : null}
      </Section>
      <Section title={t('order.add.sections.contact')}>
        <Field label={label('email')} field={f('email')} type="email" inputProps={{ autoComplete: 'off' }} />
        <Field
          label={label('personal_email')}
          field={f('personal_email')}
          type="email"
          inputProps={{ autoComplete: 'off' }}
        />
        <div className="hidden lg:block" aria-hidden="true" />
        <SelectField
          label={label('phone_country')}
          field={f('phone_country')}
          placeholder={choose}
          options={phoneCountries}
        />
        <Field
          label={label('phone_number')}
          field={f('phone_number')}
          type="tel"
          inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
        />
      </Section>
      <Section title={t('order.add.sections.trip')}>
        <Field
          label={label('passport_number')}
          field={f('passport_number')}
          inputProps={{ autoComplete: 'off' }}
        />
        <SelectField
          label={label('residence_country_id')}
          field={f('residence_country_id')}
          placeholder={choose}
          options={countryOptions}
        />
        <SelectField
          label={label('destination_country_id')}
          field={f('destination_country_id')}
          placeholder={choose}
          options={countryOptions}
        />
        <Field label={label('start_date')} field={f('start_date')} type="date" />
        <Field label={label('end_date')} field={f('end_date')} type="date" />
        <Field label={label('destination_address')} field={f('destination_address')} />
      </Section>
      <Section title={t('order.add.sections.study')}>
        <Field
          label={label('student_number')}
          field={f('student_number')}
          inputProps={{ autoComplete: 'off' }}
        />
        <Field label={label('plan')} field={f('plan')} />
        <Field label={label('year_of_study')} field={f('year_of_study')} />
        <Field label={label('group_name')} field={f('group_name')} />
      </Section>
    </div>
  );
}
