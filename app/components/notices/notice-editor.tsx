/**
 * The notice editor (new and edit): title, message, status, email, and the audience as native choices
 * (multiple selects and checkbox groups), so it works without JavaScript. An empty dimension means
 * "anyone".
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { NoticeAudience } from '@db/schema/notices';
import type { NoticeOptions } from '@server/domain/notices/options';
import {
  NOTICE_BILLING_TYPES,
  NOTICE_MARKETS,
  NOTICE_STATUSES,
  NOTICE_USER_TYPES,
} from '@server/domain/notices/values';
import { localePath } from '~/i18n/config';
import { useSchemaForm, type Constraints } from '~/lib/schema-form';
import {
  AppForm,
  Checkbox,
  CheckboxField,
  ErrorList,
  Field,
  FieldShell,
  FormErrors,
  Select,
  SelectField,
  TextAreaField,
  errorsOf,
} from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';

export interface NoticeDefaults {
  title: string;
  message: string;
  status: 'active' | 'archived';
  send_email: boolean;
  audience: NoticeAudience;
}

const EMPTY: NoticeDefaults = {
  title: '',
  message: '',
  status: 'active',
  send_email: false,
  audience: {
    clients: [],
    campuses: [],
    products: [],
    user_types: [],
    countries: [],
    billing_types: [],
    markets: [],
  },
};

function MultiSelect({
  name,
  label,
  hint,
  options,
  selected,
  errors,
}: {
  name: string;
  label: string;
  hint: string;
  options: { value: string; label: string }[];
  selected: string[];
  errors?: string[];
}) {
  const id = `notice-${name}`;
  return (
    <FieldShell id={id} label={label} hint={hint} errors={errors} errorId={`${id}-error`}>
      <Select
        id={id}
        name={name}
        multiple
        size={Math.min(6, Math.max(3, options.length))}
        defaultValue={selected}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
        options={options}
      />
    </FieldShell>
  );
}

function CheckGroup({
  name,
  legend,
  values,
  labelOf,
  selected,
  errors,
}: {
  name: string;
  legend: string;
  values: readonly string[];
  labelOf: (v: string) => string;
  selected: string[];
  errors?: string[];
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {values.map((v) => (
          <Checkbox
            key={v}
            id={`notice-${name}-${v}`}
            name={name}
            value={v}
            defaultChecked={selected.includes(v)}
            label={labelOf(v)}
          />
        ))}
      </div>
      <ErrorList errors={errors} />
    </fieldset>
  );
}

export function NoticeEditor({
  id,
  defaults = EMPTY,
  options,
  constraint,
  lastResult,
  submitLabel,
  intent,
}: {
  id: string;
  /** The intent the save button sends, on a page with several forms. */
  intent?: string;
  defaults?: NoticeDefaults;
  options: NoticeOptions;
  constraint: Constraints;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/notices/schema').then((m) => m.noticeSchema),
    id,
    lastResult: lastResult ?? undefined,
    constraint,
    defaultValue: {
      title: defaults.title,
      message: defaults.message,
      status: defaults.status,
      send_email: defaults.send_email ? 'on' : undefined,
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const a = defaults.audience;
  const clientName = new Map(options.clients.map((c) => [c.value, c.label]));
  return (
    <AppForm method="post" {...getFormProps(form)} className="space-y-6">
      <FormErrors errors={form.errors} />
      <Field label={t('notices.fields.title')} field={fields.title} />
      <TextAreaField label={t('notices.fields.message')} field={fields.message} rows={6} />
      <div className="grid gap-6 sm:grid-cols-2">
        <SelectField
          label={t('notices.fields.status')}
          field={fields.status}
          options={NOTICE_STATUSES.map((s) => ({ value: s, label: t(`notices.statuses.${s}`) }))}
        />
        <div className="sm:pt-7">
          <CheckboxField
            label={t('notices.fields.send_email')}
            hint={t('notices.fields.send_email_hint')}
            field={fields.send_email}
          />
        </div>
      </div>
      <fieldset className="space-y-5 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-800">{t('notices.audience.title')}</legend>
        <p className="text-sm text-slate-600">{t('notices.audience.hint')}</p>
        <div className="grid gap-5 md:grid-cols-2">
          <MultiSelect
            name="clients"
            label={t('notices.audience.clients')}
            hint={t('notices.audience.multi_hint')}
            options={options.clients}
            selected={a.clients}
            errors={errorsOf(fields, 'clients')}
          />
          <MultiSelect
            name="campuses"
            label={t('notices.audience.campuses')}
            hint={t('notices.audience.multi_hint')}
            options={options.campuses.map((c) => ({
              value: c.value,
              label: `${c.label} · ${clientName.get(c.client) ?? ''}`,
            }))}
            selected={a.campuses}
            errors={errorsOf(fields, 'campuses')}
          />
          <MultiSelect
            name="products"
            label={t('notices.audience.products')}
            hint={t('notices.audience.multi_hint')}
            options={options.products}
            selected={a.products}
            errors={errorsOf(fields, 'products')}
          />
          <MultiSelect
            name="countries"
            label={t('notices.audience.countries')}
            hint={t('notices.audience.multi_hint')}
            options={options.countries}
            selected={a.countries}
            errors={errorsOf(fields, 'countries')}
          />
        </div>
        <CheckGroup
          name="user_types"
          legend={t('notices.audience.user_types')}
          values={NOTICE_USER_TYPES}
          labelOf={(v) => t(`users.member_types.${v}`)}
          selected={a.user_types}
          errors={errorsOf(fields, 'user_types')}
        />
        <CheckGroup
          name="billing_types"
          legend={t('notices.audience.billing_types')}
          values={NOTICE_BILLING_TYPES}
          labelOf={(v) => t(`clients.payment_terms.${v}`)}
          selected={a.billing_types}
          errors={errorsOf(fields, 'billing_types')}
        />
        <CheckGroup
          name="markets"
          legend={t('notices.audience.markets')}
          values={NOTICE_MARKETS}
          labelOf={(v) => t(`clients.types.${v}`)}
          selected={a.markets}
          errors={errorsOf(fields, 'markets')}
        />
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy} name={intent ? 'intent' : undefined} value={intent}>
          {submitLabel}
        </Button>
        <ButtonLink to={localePath(i18n.language, '/notices')} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
      </div>
    </AppForm>
  );
}
