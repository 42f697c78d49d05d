/**
 * Pieces of the campus pages: the profile and billing field groups (Conform fields of the campus
 * schemas), link tabs, a facts list, and the form defaults of a campus.
 */
import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CAMPUS_LANGUAGES, CAMPUS_PAYMENT_TERMS } from '@server/domain/campuses/values';
import type { SerializeFrom } from '@remix-run/cloudflare';
import type { CampusDetail } from '@server/domain/campuses/service';
import { ErrorList, Field, Label, TextAreaField, inputClass } from '~/components/forms';
import type { CountryOption } from '~/components/contacts/contacts-editor';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
type Fields = Record<string, AnyField>;

export function SelectField({
  field,
  label,
  options,
  blank,
  hint,
}: {
  field: AnyField;
  label: ReactNode;
  options: { value: string; label: string }[];
  blank?: string;
  hint?: ReactNode;
}) {
  const props = getSelectProps(field);
  return (
    <div>
      <Label htmlFor={field.id}>{label}</Label>
      <select {...props} key={props.key} className={inputClass}>
        {blank !== undefined ? <option value="">{blank}</option> : null}
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

export function CheckboxField({
  field,
  label,
  hint,
}: {
  field: AnyField;
  label: ReactNode;
  hint?: ReactNode;
}) {
  const props = getInputProps(field, { type: 'checkbox' });
  return (
    <div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
        <input {...props} key={props.key} className="h-4 w-4 rounded border-slate-300 text-primary-700" />
        {label}
      </label>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** Name, initials, country, phone, website, language, account manager, QuickBooks id, description. */
export function CampusProfileFields({
  fields,
  managers,
  countries,
}: {
  fields: Fields;
  managers: { id: string; name: string }[];
  countries: CountryOption[];
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <Field label={t('campuses.fields.name')} field={fields.name} inputProps={{ autoComplete: 'off' }} />
      </div>
      <Field
        label={t('campuses.fields.initial')}
        field={fields.initial}
        hint={t('campuses.fields.initial_hint')}
        inputProps={{ maxLength: 10, autoComplete: 'off' }}
      />
      <SelectField
        field={fields.country_id}
        label={t('campuses.fields.country')}
        blank={t('campuses.fields.choose_country')}
        options={countries.map((c) => ({ value: String(c.id), label: c.name }))}
      />
      <div className="grid grid-cols-[7rem_1fr] items-start gap-3">
        <Field
          label={t('campuses.fields.phone_country')}
          field={fields.phone_country}
          hint={t('campuses.fields.phone_country_hint')}
          inputProps={{ maxLength: 2, style: { textTransform: 'uppercase' } }}
        />
        <Field
          label={t('campuses.fields.phone_number')}
          field={fields.phone_number}
          type="tel"
          inputProps={{ inputMode: 'numeric' }}
        />
      </div>
      <Field
        label={t('campuses.fields.website')}
        field={fields.website}
        hint={t('campuses.fields.website_hint')}
        inputProps={{ inputMode: 'url' }}
      />
      <SelectField
        field={fields.preferred_lang}
        label={t('campuses.fields.preferred_lang')}
        options={CAMPUS_LANGUAGES.map((l) => ({ value: l, label: t(`campuses.languages.${l}`) }))}
      />
      <SelectField
        field={fields.account_manager_id}
        label={t('campuses.fields.account_manager')}
        blank={t('campuses.fields.no_account_manager')}
        options={managers.map((m) => ({ value: m.id, label: m.name }))}
      />
      <Field label={t('campuses.fields.quickbooks_id')} field={fields.quickbooks_id} />
      <div className="sm:col-span-2">
        <TextAreaField label={t('campuses.fields.description')} field={fields.description} rows={3} />
      </div>
    </div>
  );
}

/** Account numbers AP and AR, payment terms, pay by bank transfer. */
export function CampusBillingFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label={t('campuses.fields.account_number_ap')} field={fields.account_number_ap} />
      <Field label={t('campuses.fields.account_number_ar')} field={fields.account_number_ar} />
      <SelectField
        field={fields.payment_terms}
        label={t('campuses.fields.payment_terms')}
        blank={t('campuses.fields.no_payment_terms')}
        options={CAMPUS_PAYMENT_TERMS.map((p) => ({ value: p, label: t(`campuses.payment_terms.${p}`) }))}
      />
      <div className="self-end pb-2">
        <CheckboxField
          field={fields.pay_with_bank_transfer}
          label={t('campuses.fields.pay_with_bank_transfer')}
        />
      </div>
    </div>
  );
}

/** Form defaults of a campus's profile and billing fields. */
export function campusFormValue(c: SerializeFrom<CampusDetail>) {
  return {
    name: c.name,
    initial: c.initial ?? '',
    description: c.description ?? '',
    country_id: c.country ? String(c.country.id) : '',
    phone_country: c.phone_country ?? '',
    phone_number: c.phone_number ?? '',
    website: c.website ?? '',
    preferred_lang: c.preferred_lang,
    account_manager_id: c.account_manager?.id ?? '',
    quickbooks_id: c.quickbooks_id ?? '',
    account_number_ap: c.account_number_ap ?? '',
    account_number_ar: c.account_number_ar ?? '',
    payment_terms: c.payment_terms ?? '',
    pay_with_bank_transfer: c.pay_with_bank_transfer ? 'on' : '',
  };
}

/**
 * The form's default button, first in tree order: pressing Enter in a field saves the form rather than
 * pressing the first "Remove" or "Add" button of a list (those are submit buttons too).
 */
export function DefaultSubmit({ name = 'intent', value }: { name?: string; value: string }) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      tabIndex={-1}
      aria-hidden="true"
      className="absolute -left-[9999px] h-px w-px overflow-hidden"
    />
  );
}
