/**
 * The service agreement form (create and edit): name, insurer, dates, default product and the product
 * rows (product, campus, net price, min days, sale price, start and end date, PO number). Rows are a
 * Conform list: "Add product row" and "Remove" are intent buttons, so without JavaScript they post back
 * and the page comes back with the row added or removed and everything typed kept.
 */
import { getInputProps, type FieldMetadata, type FormMetadata } from '@conform-to/react';
import { listOf } from '~/components/contacts/contacts-editor';
import type { SerializeFrom } from '@remix-run/cloudflare';
import { useTranslation } from 'react-i18next';
import type { AgreementFormOptions, AgreementView } from '@server/domain/service-agreements/queries';
import { MAX_AGREEMENT_ROWS } from '@server/domain/service-agreements/values';
import { ErrorList, Field } from '~/components/forms';
import { SelectField } from '~/components/campuses/campus-bits';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = FormMetadata<any, string[]>;
type Options = SerializeFrom<AgreementFormOptions>;

/** Form defaults of an agreement (prices as typed, two decimals). */
export function agreementFormValue(a: SerializeFrom<AgreementView>) {
  return {
    name: a.name,
    insurer_id: a.insurer?.id ?? '',
    start_date: a.start_date,
    end_date: a.end_date ?? '',
    default_product_id: a.default_product?.id ?? '',
    rows: a.rows.map((r) => ({
      id: String(r.id),
      product_id: r.product.id,
      campus_id: r.campus.id,
      net_price: r.net_price.toFixed(2),
      min_days: String(r.min_days),
      sale_price: r.sale_price.toFixed(2),
      start_date: r.start_date,
      end_date: r.end_date ?? '',
      po_number: r.po_number ?? '',
    })),
  };
}

/** A blank product row (optionally for one campus). */
export function blankRow(campusId = '') {
  return {
    id: '',
    product_id: '',
    campus_id: campusId,
    net_price: '',
    min_days: '6',
    sale_price: '',
    start_date: '',
    end_date: '',
    po_number: '',
  };
}

export function AgreementStatus({ status, valid }: { status: string; valid: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <StatusBadge tone={statusTone(status)}>{t(`service_agreements.statuses.${status}`)}</StatusBadge>
      <StatusBadge tone={valid ? 'blue' : 'slate'}>
        {valid ? t('service_agreements.valid') : t('service_agreements.not_valid')}
      </StatusBadge>
    </span>
  );
}

export function AgreementFields({
  form,
  fields,
  options,
  usedProductIds = [],
}: {
  form: AnyForm;
  fields: Record<string, AnyField>;
  options: Options;
  /** Products already in the agreement stay selectable even when archived. */
  usedProductIds?: string[];
}) {
  const { t } = useTranslation();
  const products = options.products.filter((p) => p.status === 'active' || usedProductIds.includes(p.id));
  const productOptions = products.map((p) => ({ value: p.id, label: `${p.name} (${p.code})` }));
  const campusOptions = options.campuses
    .filter((c) => c.status === 'active')
    .map((c) => ({ value: c.id, label: c.name }));
  const insurerOptions = options.insurers
    .filter((i) => i.status === 'active' || i.id === fields.insurer_id.initialValue)
    .map((i) => ({ value: i.id, label: i.name }));
  const rowsField = listOf(fields.rows);
  const rows = rowsField.getFieldList();
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Field
            label={t('service_agreements.fields.name')}
            field={fields.name}
            inputProps={{ autoComplete: 'off' }}
          />
        </div>
        <SelectField
          field={fields.insurer_id}
          label={t('service_agreements.fields.insurer')}
          blank={t('service_agreements.fields.choose_insurer')}
          options={insurerOptions}
          hint={insurerOptions.length ? undefined : t('service_agreements.fields.no_insurers')}
        />
        <SelectField
          field={fields.default_product_id}
          label={t('service_agreements.fields.default_product')}
          blank={t('service_agreements.fields.no_default_product')}
          options={productOptions}
        />
        <Field label={t('service_agreements.fields.start_date')} field={fields.start_date} type="date" />
        <Field
          label={t('service_agreements.fields.end_date')}
          field={fields.end_date}
          type="date"
          hint={t('service_agreements.fields.end_date_hint')}
        />
      </div>
      <fieldset>
        <legend className="text-base font-semibold text-slate-900">
          {t('service_agreements.rows.title')}
        </legend>
        <p className="mb-3 mt-1 text-sm text-slate-600">{t('service_agreements.rows.hint')}</p>
        <ErrorList id={fields.rows.errorId} errors={fields.rows.errors} />
        <ol className="space-y-4">
          {rows.map((row, index) => {
            const r = row.getFieldset() as Record<string, AnyField>;
            return (
              <li
                key={row.key}
                className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200"
                data-testid="agreement-row"
              >
                <div className="mb-3 flex items-center justify-between gap-3">
                  <h3 className="text-sm font-semibold text-slate-800">
                    {t('service_agreements.rows.row', { n: index + 1 })}
                  </h3>
                  <button
                    {...form.remove.getButtonProps({ name: fields.rows.name, index })}
                    className="text-sm font-medium text-red-700 hover:underline"
                  >
                    {t('service_agreements.rows.remove')}
                  </button>
                </div>
                <input {...getInputProps(r.id, { type: 'hidden' })} key={r.id.key} />
                <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
                  <div className="sm:col-span-2">
                    <SelectField
                      field={r.product_id}
                      label={t('service_agreements.rows.product')}
                      blank={t('service_agreements.rows.choose_product')}
                      options={productOptions}
                    />
                  </div>
                  <div className="sm:col-span-2">
                    <SelectField
                      field={r.campus_id}
                      label={t('service_agreements.rows.campus')}
                      blank={t('service_agreements.rows.choose_campus')}
                      options={campusOptions}
                    />
                  </div>
                  <Field
                    label={t('service_agreements.rows.net_price')}
                    field={r.net_price}
                    inputProps={{ inputMode: 'decimal' }}
                  />
                  <Field
                    label={t('service_agreements.rows.sale_price')}
                    field={r.sale_price}
                    inputProps={{ inputMode: 'decimal' }}
                  />
                  <Field
                    label={t('service_agreements.rows.min_days')}
                    field={r.min_days}
                    inputProps={{ inputMode: 'numeric' }}
                  />
                  <Field label={t('service_agreements.rows.po_number')} field={r.po_number} />
                  <Field label={t('service_agreements.rows.start_date')} field={r.start_date} type="date" />
                  <Field label={t('service_agreements.rows.end_date')} field={r.end_date} type="date" />
                </div>
                <ErrorList id={row.errorId} errors={row.errors} />
              </li>
            );
          })}
        </ol>
        {rows.length < MAX_AGREEMENT_ROWS ? (
          <button
            {...form.insert.getButtonProps({ name: rowsField.name, defaultValue: blankRow() })}
            className="mt-3 text-sm font-semibold text-primary-800 hover:underline"
          >
            + {t('service_agreements.rows.add')}
          </button>
        ) : null}
      </fieldset>
    </div>
  );
}
