import type { FieldMetadata } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { REGION_CODES } from '@db/enums';
import type { CountryInput } from '@server/domain/countries/schema';
import { CheckboxField, Field, SelectField, TextAreaField } from '~/components/forms';

/** Small pieces of the countries pages. */

/** "20.00%" for a rate, "GBP 5.00" for a flat amount, null when the country has no tax. */
export function taxLabel(r: {
  tax_rate: number | null;
  tax_amount: number | null;
  currency?: string | null;
  currency_code?: string | null;
}): string | null {
  if (r.tax_rate != null) return `${r.tax_rate.toFixed(2)}%`;
  if (r.tax_amount != null) return `${r.currency ?? r.currency_code ?? ''} ${r.tax_amount.toFixed(2)}`.trim();
  return null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
type Fields = { [K in keyof CountryInput]-?: AnyField };

/** The fields of a country (new and edit pages): identity, currency, then the insurance settings. */
export function CountryFields({ fields: given }: { fields: Fields | Record<string, AnyField> }) {
  const fields = given as Fields;
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <legend className="mb-2 text-base font-semibold text-slate-900">{t('countries.details')}</legend>
        <Field label={t('countries.name')} field={fields.name} />
        <Field
          label={t('countries.abbreviation')}
          field={fields.abbreviation}
          hint={t('countries.abbreviation_hint')}
          inputProps={{ maxLength: 2, autoCapitalize: 'characters' }}
        />
        <Field
          label={t('countries.code')}
          field={fields.code}
          hint={t('countries.code_hint')}
          inputProps={{ maxLength: 3, autoCapitalize: 'characters' }}
        />
        <Field
          label={t('countries.dial_code')}
          field={fields.dial_code}
          inputProps={{ inputMode: 'numeric' }}
        />
        <Field label={t('countries.capital')} field={fields.capital} />
        <SelectField
          label={t('countries.region')}
          field={fields.region_code}
          placeholder={t('countries.choose')}
          options={REGION_CODES.map((r) => ({ value: r, label: t(`countries.regions.${r}`) }))}
        />
        <Field
          label={t('countries.currency_code')}
          field={fields.currency_code}
          inputProps={{ maxLength: 3, autoCapitalize: 'characters' }}
        />
        <Field label={t('countries.currency_name')} field={fields.currency_name} />
        <Field label={t('countries.currency_symbol')} field={fields.currency_symbol} />
        <Field
          label={t('countries.language')}
          field={fields.language}
          hint={t('countries.language_hint')}
          inputProps={{ maxLength: 2 }}
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-base font-semibold text-slate-900">
          {t('countries.insurance_settings')}
        </legend>
        <Field
          label={t('countries.age_min')}
          field={fields.age_min}
          type="number"
          inputProps={{ min: 0, max: 150 }}
        />
        <Field
          label={t('countries.age_max')}
          field={fields.age_max}
          type="number"
          inputProps={{ min: 0, max: 150 }}
        />
        <div className="sm:col-span-2">
          <TextAreaField
            label={t('countries.travel_restriction_notes')}
            field={fields.travel_restriction_notes}
            rows={3}
          />
        </div>
        <CheckboxField
          label={t('countries.stamp_duty_applicable')}
          field={fields.stamp_duty_applicable}
          hint={t('countries.stamp_duty_hint')}
        />
        <CheckboxField
          label={t('countries.requires_passport_number')}
          field={fields.requires_passport_number}
          hint={t('countries.passport_hint')}
        />
      </fieldset>
    </div>
  );
}
