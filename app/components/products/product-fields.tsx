/**
 * The fields of the product pages: product details (new product and the details tab), claim details,
 * a price band, a document, a product group; and the small badges those pages show.
 */
import type { FieldMetadata } from '@conform-to/react';
import { getSelectProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  DOCUMENT_LANGUAGES,
  DOCUMENT_TYPES,
  DOCUMENT_VISIBILITIES,
  REGION_CODES,
  TERRITORIAL_LIMITS,
} from '@server/domain/products/values';
import {
  CheckboxField,
  ErrorList,
  Field,
  Label,
  SelectField,
  TextAreaField,
  inputClass,
} from '~/components/forms';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
type Fields = Record<string, AnyField>;

export interface ProductOptions {
  companies: { id: string; name: string; currency: string }[];
  insurers: { id: string; name: string; status: string; company_id: string }[];
  units: { id: number; name: string; days: number }[];
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <legend className="mb-2 text-base font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The insurer select: grouped by company when the user sees several (a page without JavaScript cannot filter). */
function InsurerSelect({
  field,
  options,
  companyId,
}: {
  field: AnyField;
  options: ProductOptions;
  companyId?: string;
}) {
  const { t } = useTranslation();
  const props = getSelectProps(field);
  const companies = companyId ? options.companies.filter((c) => c.id === companyId) : options.companies;
  const insurersOf = (id: string) =>
    options.insurers.filter(
      (i) => i.company_id === id && (i.status === 'active' || i.id === field.initialValue),
    );
  return (
    <div>
      <Label htmlFor={field.id}>{t('products.fields.insurer')}</Label>
      <select {...props} key={props.key} className={inputClass}>
        <option value="">{t('products.no_insurer')}</option>
        {companies.length > 1
          ? companies.map((c) => (
              <optgroup key={c.id} label={c.name}>
                {insurersOf(c.id).map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.name}
                  </option>
                ))}
              </optgroup>
            ))
          : companies.flatMap((c) =>
              insurersOf(c.id).map((i) => (
                <option key={i.id} value={i.id}>
                  {i.name}
                </option>
              )),
            )}
      </select>
      {options.insurers.length === 0 ? (
        <p className="mt-1 text-xs text-slate-500">{t('products.no_insurers_hint')}</p>
      ) : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/**
 * Product details. On a new product the company is chosen when the user sees several companies; on an
 * existing product the company is fixed (`companyId`).
 */
export function ProductDetailFields({
  fields,
  options,
  companyId,
  isNew = false,
}: {
  fields: Fields;
  options: ProductOptions;
  companyId?: string;
  isNew?: boolean;
}) {
  const { t } = useTranslation();
  const f = (name: string) => t(`products.fields.${name}`);
  return (
    <div className="space-y-8">
      <Section title={t('products.sections.identity')}>
        {isNew && options.companies.length > 1 ? (
          <SelectField
            label={f('company')}
            field={fields.company_id}
            placeholder={t('products.choose')}
            options={options.companies.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : null}
        <Field
          label={f('code')}
          field={fields.code}
          hint={t('products.code_hint')}
          inputProps={{ maxLength: 20, autoCapitalize: 'characters', autoComplete: 'off' }}
        />
        <Field label={f('name')} field={fields.name} inputProps={{ maxLength: 100 }} />
        <InsurerSelect field={fields.insurer_id} options={options} companyId={companyId} />
        <Field label={f('type')} field={fields.type} />
        <Field label={f('policy_type')} field={fields.policy_type} />
        <Field label={f('scheme')} field={fields.scheme} />
        <Field label={f('cover_type')} field={fields.cover_type} />
        <SelectField
          label={f('territorial_limit')}
          field={fields.territorial_limit}
          placeholder={t('products.choose')}
          options={TERRITORIAL_LIMITS.map((v) => ({
            value: v,
            label: t(`products.territorial_limits.${v}`),
          }))}
        />
        <Field label={f('master_certificate_number')} field={fields.master_certificate_number} />
        <div className="sm:col-span-2 lg:col-span-3">
          <TextAreaField label={f('description')} field={fields.description} rows={3} />
        </div>
      </Section>
      <Section title={t('products.sections.period')}>
        <Field label={f('effective_start_date')} field={fields.effective_start_date} type="date" />
        <Field label={f('effective_end_date')} field={fields.effective_end_date} type="date" />
        <Field
          label={f('min_purchase_days')}
          field={fields.min_purchase_days}
          type="number"
          hint={t('products.min_purchase_hint')}
          inputProps={{ min: 6 }}
        />
        <Field
          label={f('max_enrolment_period_days')}
          field={fields.max_enrolment_period_days}
          type="number"
          inputProps={{ min: 0 }}
        />
        <Field
          label={f('max_term_days')}
          field={fields.max_term_days}
          type="number"
          inputProps={{ min: 0 }}
        />
        <SelectField
          label={f('unit')}
          field={fields.unit_id}
          placeholder={t('products.choose')}
          options={options.units.map((u) => ({
            value: String(u.id),
            label: t(`products.units.${u.name}`, { defaultValue: u.name }),
          }))}
        />
      </Section>
      <Section title={t('products.sections.cover')}>
        <Field
          label={f('insured_age_min')}
          field={fields.insured_age_min}
          type="number"
          inputProps={{ min: 0, max: 120 }}
        />
        <Field
          label={f('insured_age_max')}
          field={fields.insured_age_max}
          type="number"
          inputProps={{ min: 0, max: 120 }}
        />
        <SelectField
          label={f('currency')}
          field={fields.currency}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))}
        />
        <Field
          label={f('max_coverage_amount')}
          field={fields.max_coverage_amount}
          inputProps={{ inputMode: 'decimal', style: { textAlign: 'right' } }}
        />
      </Section>
    </div>
  );
}

/** Claim and medical assistance contacts and the claim details text. */
export function ClaimFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation();
  const f = (name: string) => t(`products.fields.${name}`);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label={f('claim_email')} field={fields.claim_email} type="email" />
      <Field label={f('claim_phone')} field={fields.claim_phone} type="tel" />
      <Field label={f('medical_assistance_email')} field={fields.medical_assistance_email} type="email" />
      <Field label={f('medical_assistance_phone')} field={fields.medical_assistance_phone} type="tel" />
      <div className="sm:col-span-2">
        <TextAreaField label={f('claim_details')} field={fields.claim_details} rows={6} />
      </div>
    </div>
  );
}

/** A price band: days, amounts, period and destination. */
export function PriceFields({
  fields,
  countries,
  currency,
}: {
  fields: Fields;
  countries: { id: number; name: string }[];
  currency: string;
}) {
  const { t } = useTranslation();
  const f = (name: string) => t(`products.prices.${name}`);
  const countriesProps = getSelectProps(fields.destination_country_ids);
  const money = { inputMode: 'decimal' as const, style: { textAlign: 'right' as const } };
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={f('min_days')} field={fields.min_days} type="number" inputProps={{ min: 1 }} />
        <Field label={f('max_days')} field={fields.max_days} type="number" inputProps={{ min: 1 }} />
        <Field label={`${f('net')} (${currency})`} field={fields.net} inputProps={money} />
        <Field label={`${f('sale')} (${currency})`} field={fields.sale} inputProps={money} />
        <Field label={`${f('custom')} (${currency})`} field={fields.custom} inputProps={money} />
        <Field label={f('from_date')} field={fields.from_date} type="date" />
        <Field label={f('to_date')} field={fields.to_date} type="date" />
        <div className="flex items-end pb-2">
          <CheckboxField label={f('flat')} field={fields.flat} hint={f('flat_hint')} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={f('region')}
          field={fields.region_code}
          placeholder={f('anywhere')}
          options={REGION_CODES.map((r) => ({ value: r, label: t(`products.regions.${r}`) }))}
          hint={f('destination_hint')}
        />
        <div>
          <Label htmlFor={fields.destination_country_ids.id}>{f('countries')}</Label>
          <select {...countriesProps} key={countriesProps.key} multiple size={5} className={inputClass}>
            {countries.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500">{f('countries_hint')}</p>
          <ErrorList
            id={fields.destination_country_ids.errorId}
            errors={fields.destination_country_ids.errors}
          />
        </div>
      </div>
    </div>
  );
}

/** A document's details; the file input is the caller's (required on upload, optional on change). */
export function DocumentFields({ fields }: { fields: Fields }) {
  const { t } = useTranslation();
  const f = (name: string) => t(`products.documents.${name}`);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <SelectField
        label={f('type')}
        field={fields.type}
        placeholder={t('products.choose')}
        options={DOCUMENT_TYPES.map((v) => ({ value: v, label: t(`products.document_types.${v}`) }))}
      />
      <SelectField
        label={f('language')}
        field={fields.language}
        options={DOCUMENT_LANGUAGES.map((v) => ({ value: v, label: t(`products.languages.${v}`) }))}
      />
      <SelectField
        label={f('visibility')}
        field={fields.visibility}
        options={DOCUMENT_VISIBILITIES.map((v) => ({ value: v, label: t(`products.visibilities.${v}`) }))}
      />
      <Field label={f('title')} field={fields.title} inputProps={{ maxLength: 150 }} />
      <Field label={f('valid_from')} field={fields.valid_from} type="date" />
      <Field label={f('valid_to')} field={fields.valid_to} type="date" />
      <div className="sm:col-span-2 lg:col-span-3">
        <TextAreaField label={f('description')} field={fields.description} rows={2} />
      </div>
    </div>
  );
}

/** A file input with its errors (Conform field `file`). */
export function FileField({
  field,
  label,
  hint,
  required,
}: {
  field: AnyField;
  label: string;
  hint?: string;
  required?: boolean;
}) {
  return (
    <div>
      <Label htmlFor={field.id}>{label}</Label>
      <input
        id={field.id}
        name={field.name}
        type="file"
        required={required}
        accept=".pdf,.png,.jpg,.jpeg,.docx,.xlsx"
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
        className="block w-full text-sm text-slate-700 file:mr-4 file:rounded-lg file:border-0 file:bg-primary-50 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-primary-800 hover:file:bg-primary-100"
      />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A product group's fields; the products are the company's products (several companies: grouped). */
export function ProductGroupFields({
  fields,
  companies,
  products,
  isNew,
  maxDescription,
}: {
  fields: Fields;
  companies: { id: string; name: string }[];
  products: { id: string; code: string; name: string; status: string; company_id: string }[];
  isNew: boolean;
  maxDescription: number;
}) {
  const { t } = useTranslation();
  const f = (name: string) => t(`products.groups.${name}`);
  const productProps = getSelectProps(fields.product_ids);
  const label = (p: { code: string; name: string; status: string }) =>
    `${p.code} · ${p.name}${p.status === 'archived' ? ` (${t('products.statuses.archived')})` : ''}`;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {isNew && companies.length > 1 ? (
        <SelectField
          label={t('products.fields.company')}
          field={fields.company_id}
          placeholder={t('products.choose')}
          options={companies.map((c) => ({ value: c.id, label: c.name }))}
        />
      ) : null}
      <Field label={f('name')} field={fields.name} inputProps={{ maxLength: 100 }} />
      <Field label={f('scheme')} field={fields.scheme} />
      <Field label={f('type')} field={fields.type} />
      <div className="sm:col-span-2">
        <Label htmlFor={fields.product_ids.id}>{f('products')}</Label>
        <select {...productProps} key={productProps.key} multiple size={8} className={inputClass}>
          {companies.length > 1
            ? companies.map((c) => (
                <optgroup key={c.id} label={c.name}>
                  {products
                    .filter((p) => p.company_id === c.id)
                    .map((p) => (
                      <option key={p.id} value={p.id}>
                        {label(p)}
                      </option>
                    ))}
                </optgroup>
              ))
            : products.map((p) => (
                <option key={p.id} value={p.id}>
                  {label(p)}
                </option>
              ))}
        </select>
        <p className="mt-1 text-xs text-slate-500">{f('products_hint')}</p>
        <ErrorList id={fields.product_ids.errorId} errors={fields.product_ids.errors} />
      </div>
      <div className="sm:col-span-2">
        <TextAreaField label={f('description')} field={fields.description} rows={4} />
        <p className="mt-1 text-xs text-slate-500">
          {t('products.groups.description_hint', { max: maxDescription })}
        </p>
      </div>
    </div>
  );
}

export { PeriodBadge, ProductStatusBadge } from './product-badges';
