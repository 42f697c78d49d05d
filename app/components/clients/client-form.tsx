/**
 * The field groups of the client forms (new client, the profile / billing / fact-find cards of a client,
 * the school's own profile), bound to Conform fields of `clientCreateSchema` / `clientUpdateSchema`.
 */
import { getSelectProps, type FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  LANGUAGES as CLIENT_LANGUAGES,
  CLIENT_TYPES,
  INVOICE_RULES,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
} from '@db/enums';
import { FACT_FIND_QUESTIONS } from '@server/domain/clients/values';
import { CheckboxField, ErrorList, Field, Label, TextAreaField, inputClass } from '~/components/forms';
import { fieldsetOf } from '~/components/contacts/contacts-editor';

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
  return (
    <div>
      <Label htmlFor={field.id}>{label}</Label>
      <select {...getSelectProps(field)} className={inputClass}>
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

/** Name, type, website, description, phone, language, account manager (and company when several). */
export function ClientProfileFields({
  fields,
  managers,
  companies,
  school = false,
}: {
  fields: Fields;
  managers?: { id: string; name: string }[];
  companies?: { id: string; name: string }[];
  /** The school's own profile: no type and no account manager. */
  school?: boolean;
}) {
  const { t } = useTranslation();
  const opts = (values: readonly string[], prefix: string) =>
    values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <Field
          label={t('clients.fields.name')}
          field={fields.name}
          inputProps={{ autoComplete: 'organization' }}
        />
      </div>
      {companies && companies.length > 1 ? (
        <SelectField
          field={fields.company_id}
          label={t('clients.fields.company')}
          blank=""
          options={companies.map((c) => ({ value: c.id, label: c.name }))}
        />
      ) : null}
      {!school ? (
        <SelectField
          field={fields.type}
          label={t('clients.fields.type')}
          options={opts(CLIENT_TYPES, 'clients.types')}
        />
      ) : null}
      <Field
        label={t('clients.fields.website')}
        field={fields.website}
        hint={t('clients.fields.website_hint')}
        inputProps={{ inputMode: 'url', autoComplete: 'url' }}
      />
      <SelectField
        field={fields.preferred_lang}
        label={t('clients.fields.preferred_lang')}
        options={opts(CLIENT_LANGUAGES, 'clients.languages')}
      />
      <div className="grid grid-cols-[7rem_1fr] items-start gap-3">
        <Field
          label={t('clients.fields.phone_country')}
          field={fields.phone_country}
          hint={t('contacts.phone_country_hint')}
          inputProps={{ maxLength: 2, style: { textTransform: 'uppercase' } }}
        />
        <Field
          label={t('clients.fields.phone_number')}
          field={fields.phone_number}
          type="tel"
          inputProps={{ inputMode: 'numeric' }}
        />
      </div>
      {!school ? (
        <div className="sm:col-span-2">
          <input type="hidden" name={fields.expiry_reminders.name} value="false" />
          <CheckboxField
            field={fields.expiry_reminders}
            label={t('reminders.setting.label')}
            hint={t('reminders.setting.hint', { days: 14 })}
          />
        </div>
      ) : null}
      {!school && managers ? (
        <SelectField
          field={fields.account_manager_id}
          label={t('clients.fields.account_manager')}
          blank={t('clients.fields.no_account_manager')}
          options={managers.map((m) => ({ value: m.id, label: m.name }))}
        />
      ) : null}
      <div className="sm:col-span-2">
        <TextAreaField label={t('clients.fields.description')} field={fields.description} rows={3} />
      </div>
    </div>
  );
}

/** Payment terms, method and frequency, invoice rule, invoicing flag, tax number, AP/AR numbers. */
export function ClientBillingFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation();
  const opts = (values: readonly string[], prefix: string) =>
    values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        field={fields.payment_terms}
        label={t('clients.fields.payment_terms')}
        options={opts(PAYMENT_TERMS, 'clients.payment_terms')}
      />
      <SelectField
        field={fields.payment_method}
        label={t('clients.fields.payment_method')}
        options={opts(PAYMENT_METHODS, 'clients.payment_methods')}
      />
      <SelectField
        field={fields.payment_frequency}
        label={t('clients.fields.payment_frequency')}
        blank={t('clients.fields.no_frequency')}
        options={opts(PAYMENT_FREQUENCIES, 'clients.payment_frequencies')}
      />
      <SelectField
        field={fields.invoice_rule}
        label={t('clients.fields.invoice_rule')}
        options={opts(INVOICE_RULES, 'clients.invoice_rules')}
      />
      <SelectField
        field={fields.billing_enabled}
        label={t('clients.fields.billing_enabled')}
        options={[
          { value: 'true', label: t('clients.fields.billing_enabled_yes') },
          { value: 'false', label: t('clients.fields.billing_enabled_no') },
        ]}
      />
      <Field label={t('clients.fields.tax_number')} field={fields.tax_number} />
      <Field label={t('clients.fields.account_number_ap')} field={fields.account_number_ap} />
      <Field label={t('clients.fields.account_number_ar')} field={fields.account_number_ar} />
    </div>
  );
}

/** The fact-find questionnaire (`fact_find.*`). */
export function FactFindFields({ field }: { field: AnyField }) {
  const { t } = useTranslation();
  const fs = fieldsetOf(field).getFieldset() as Fields;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {FACT_FIND_QUESTIONS.map((q) => {
        const label = t(`clients.fact_find.questions.${q.key}`);
        if (q.kind === 'choice')
          return (
            <SelectField
              key={q.key}
              field={fs[q.key]}
              label={label}
              blank={t('clients.fact_find.choose')}
              options={q.options.map((o) => ({ value: o, label: t(`clients.fact_find.options.${o}`) }))}
            />
          );
        if (q.key === 'additional_requirements')
          return (
            <div key={q.key} className="sm:col-span-2">
              <TextAreaField label={label} field={fs[q.key]} rows={3} />
            </div>
          );
        return (
          <Field
            key={q.key}
            label={label}
            field={fs[q.key]}
            inputProps={q.kind === 'number' ? { inputMode: 'numeric' } : undefined}
          />
        );
      })}
    </div>
  );
}

/** A file input for the client's logo or return policy, with its errors. */
export function ClientFileInput({
  name,
  label,
  hint,
  accept,
  errors,
  current,
}: {
  name: 'logo' | 'return_policy';
  label: string;
  hint: string;
  accept: string;
  errors?: string[];
  current?: ReactNode;
}) {
  const id = `client-${name}`;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {current ? <div className="mb-2 text-sm">{current}</div> : null}
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-invalid={errors?.length ? true : undefined}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
      />
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
      <ErrorList errors={errors} />
    </div>
  );
}

export const LOGO_ACCEPT = '.png,.jpg,.jpeg,.gif,.webp';
export const RETURN_POLICY_ACCEPT = '.pdf,.docx';

/** Client defaults for a form from the detail (strings, as inputs hold them). */
export function clientFormValue(c: {
  name: string;
  type: string;
  website: string | null;
  description: string | null;
  phone_country: string | null;
  phone_number: string | null;
  preferred_lang: string;
  expiry_reminders?: boolean;
  account_manager: { id: string } | null;
  billing_enabled: boolean;
  payment_terms: string;
  payment_method: string;
  payment_frequency: string | null;
  invoice_rule: string;
  tax_number: string | null;
  account_number_ap: string | null;
  account_number_ar: string | null;
  fact_find: Record<string, string>;
}) {
  return {
    name: c.name,
    type: c.type,
    website: c.website ?? '',
    description: c.description ?? '',
    phone_country: c.phone_country ?? '',
    phone_number: c.phone_number ?? '',
    preferred_lang: c.preferred_lang,
    expiry_reminders: c.expiry_reminders === false ? '' : 'on',
    account_manager_id: c.account_manager?.id ?? '',
    billing_enabled: c.billing_enabled ? 'true' : 'false',
    payment_terms: c.payment_terms,
    payment_method: c.payment_method,
    payment_frequency: c.payment_frequency ?? '',
    invoice_rule: c.invoice_rule,
    tax_number: c.tax_number ?? '',
    account_number_ap: c.account_number_ap ?? '',
    account_number_ar: c.account_number_ar ?? '',
    fact_find: c.fact_find,
  };
}
