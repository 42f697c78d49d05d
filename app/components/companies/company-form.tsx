/**
 * The company form (new and edit pages): details, bank, payments and orders, contacts, addresses, legal
 * texts and accounting, as Conform fields of `companySchema`.
 */
import type { FieldMetadata, FormMetadata } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import {
  COMPANY_CONTACT_TYPES,
  COMPANY_CURRENCIES,
  COMPANY_LANGUAGES,
  ORDER_STATUSES,
  PAYMENT_GATEWAYS,
  REGION_CURRENCY,
} from '@server/domain/companies/values';
import type { CompanyView } from '@server/domain/companies/service';
import { addressFormValue, contactsFormValue } from '@server/domain/contacts/values';
import { Field, SelectField, TextAreaField } from '~/components/forms';
import { Card } from '~/components/ui/card';
import {
  AddressFieldset,
  ContactsEditor,
  type CountryOption,
  type ObjectField,
} from '~/components/contacts/contacts-editor';
import { LANGUAGE_NAMES } from '~/i18n/config';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = FormMetadata<any, string[]>;

/**
 * The form's default values: a new company (in the region's currency), or an existing one as the page
 * received it (JSON).
 */
export function companyFormValue(
  company: Omit<CompanyView, 'created_at' | 'updated_at'> | null,
  region: keyof typeof REGION_CURRENCY = 'uk',
) {
  if (!company) {
    return {
      preferred_lang: 'en',
      currency: REGION_CURRENCY[region],
      payment_gateway: 'none',
      overdue_reminder_days: '1, 7, 14',
      contacts: contactsFormValue(null),
    };
  }
  const s = (v: string | number | null | undefined) => (v == null ? '' : String(v));
  return {
    name: company.name,
    country_id: s(company.country_id),
    registration_number: s(company.registration_number),
    preferred_lang: company.preferred_lang,
    currency: company.currency,
    bank_name: s(company.bank_name),
    bic: s(company.bic),
    iban: s(company.iban),
    branch_code: s(company.branch_code),
    account_number: s(company.account_number),
    payment_gateway: company.payment_gateway ?? 'none',
    order_status_default: s(company.order_status_default),
    failed_order_status: s(company.failed_order_status),
    change_status_after: s(company.change_status_after),
    cookie_policy: s(company.cookie_policy),
    footer_information: s(company.footer_information),
    terms: s(company.terms),
    quickbooks_company_id: s(company.quickbooks_company_id),
    overdue_reminder_days: (company.overdue_reminder_days ?? []).join(', '),
    contacts: contactsFormValue(company.contacts),
    billing_address: addressFormValue(company.billing_address),
    mailing_address: addressFormValue(company.mailing_address),
  };
}

export function CompanyFormSections({
  form,
  fields: given,
  countries,
}: {
  form: AnyForm;
  fields: Record<string, AnyField>;
  countries: CountryOption[];
}) {
  const { t } = useTranslation();
  const f = given as Record<string, AnyField>;
  const label = (k: string) => t(`companies.fields.${k}`);
  const orderStatuses = ORDER_STATUSES.map((s) => ({ value: s, label: t(`companies.order_statuses.${s}`) }));
  return (
    <>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('companies.sections.details')}</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={label('name')} field={f.name} />
          <SelectField
            label={label('country_id')}
            field={f.country_id}
            placeholder={t('companies.choose_country')}
            options={countries.map((c) => ({ value: String(c.id), label: c.name }))}
          />
          <Field label={label('registration_number')} field={f.registration_number} />
          <SelectField
            label={label('currency')}
            field={f.currency}
            options={COMPANY_CURRENCIES.map((c) => ({ value: c, label: c }))}
          />
          <SelectField
            label={label('preferred_lang')}
            field={f.preferred_lang}
            options={COMPANY_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          />
        </div>
      </Card>
      <Card>
        <h2 className="mb-1 text-base font-semibold">{t('companies.sections.bank')}</h2>
        <p className="mb-4 text-sm text-slate-500">{t('companies.sections.bank_hint')}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={label('bank_name')} field={f.bank_name} />
          <Field
            label={label('bic')}
            field={f.bic}
            inputProps={{ autoCapitalize: 'characters', maxLength: 11 }}
          />
          <div className="sm:col-span-2">
            <Field
              label={label('iban')}
              field={f.iban}
              hint={t('companies.iban_hint')}
              inputProps={{ autoCapitalize: 'characters', maxLength: 42 }}
            />
          </div>
          <Field label={label('branch_code')} field={f.branch_code} hint={t('companies.branch_code_hint')} />
          <Field label={label('account_number')} field={f.account_number} />
        </div>
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('companies.sections.payments')}</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={label('payment_gateway')}
            field={f.payment_gateway}
            options={PAYMENT_GATEWAYS.map((g) => ({ value: g, label: t(`companies.gateways.${g}`) }))}
          />
          <Field
            label={label('change_status_after')}
            field={f.change_status_after}
            type="number"
            hint={t('companies.change_status_after_hint')}
            inputProps={{ min: 0, max: 3650 }}
          />
          <Field
            label={t('overdue.settings.days')}
            field={f.overdue_reminder_days}
            hint={t('overdue.settings.days_hint')}
            inputProps={{ inputMode: 'numeric', autoComplete: 'off' }}
          />
          <SelectField
            label={label('order_status_default')}
            field={f.order_status_default}
            placeholder={t('companies.not_set')}
            options={orderStatuses}
          />
          <SelectField
            label={label('failed_order_status')}
            field={f.failed_order_status}
            placeholder={t('companies.not_set')}
            options={orderStatuses}
          />
        </div>
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('companies.sections.contacts')}</h2>
        <ContactsEditor
          form={form}
          field={f.contacts as ObjectField}
          types={COMPANY_CONTACT_TYPES}
          countries={countries}
        />
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('companies.sections.addresses')}</h2>
        <div className="grid gap-4 lg:grid-cols-2">
          <AddressFieldset field={f.billing_address as ObjectField} kind="billing" countries={countries} />
          <AddressFieldset field={f.mailing_address as ObjectField} kind="mailing" countries={countries} />
        </div>
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('companies.sections.legal')}</h2>
        <div className="space-y-4">
          <TextAreaField label={label('footer_information')} field={f.footer_information} rows={3} />
          <TextAreaField label={label('cookie_policy')} field={f.cookie_policy} rows={5} />
          <TextAreaField label={label('terms')} field={f.terms} rows={5} />
        </div>
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('companies.sections.accounting')}</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={label('quickbooks_company_id')} field={f.quickbooks_company_id} />
        </div>
      </Card>
    </>
  );
}
