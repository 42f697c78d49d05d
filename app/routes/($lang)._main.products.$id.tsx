/**
 * A product: tabs for product details, claim details, beneficiary cover limits, company details,
 * pricing, documents and logs (spec 001 s.2). Tabs are links (`?tab=`), every form is a plain POST with
 * an `intent`, so the page works without JavaScript.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useSearchParams,
} from '@remix-run/react';
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can } from '@server/domain/access/actor';
import { NotFound } from '@server/domain/errors';
import { activeCountries } from '@server/domain/countries/service';
import {
  PRICE_PERIODS,
  coverageLimitSchema,
  documentCrossRules,
  documentObject,
  priceCrossRules,
  priceObject,
  productCrossRules,
  updateProductObject,
  type PricePeriod,
} from '@server/domain/products/schema';
import {
  getProduct,
  productActivities,
  productFormOptions,
  setProductStatus,
  updateProduct,
} from '@server/domain/products/service';
import { addPrice, deletePrice, listPrices, updatePrice } from '@server/domain/products/prices';
import {
  addDocument,
  deleteDocument,
  listDocuments,
  updateDocument,
} from '@server/domain/products/documents';
import { langOf, requirePermissions, withFormErrors } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, inputClass } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { useActionSnack } from '~/components/ui/snackbar';
import { useSavedParamSnack } from '~/components/products/saved-snack';
import { ActivityLog } from '~/components/activity/activity-log';
import {
  ClaimFields,
  DocumentFields,
  FileField,
  PeriodBadge,
  PriceFields,
  ProductDetailFields,
  ProductStatusBadge,
} from '~/components/products/product-fields';
import { formatMoney } from '~/lib/money';

const TABS = ['details', 'claim', 'limits', 'company', 'pricing', 'documents', 'logs'] as const;
type Tab = (typeof TABS)[number];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

async function orNotFound<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof NotFound) throw new Response('Not Found', { status: 404 });
    throw e;
  }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_product');
  const id = params.id!;
  const url = new URL(request.url);
  const tab: Tab = (TABS as readonly string[]).includes(url.searchParams.get('tab') ?? '')
    ? (url.searchParams.get('tab') as Tab)
    : 'details';
  const product = await orNotFound(() => getProduct(ctx, id));
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
  const period = url.searchParams.get('period');
  const canUpdate = can(ctx.actor, 'update_product');
  const [options, prices, countries, documents, logs] = await Promise.all([
    tab === 'details' ? productFormOptions(ctx) : null,
    tab === 'pricing'
      ? listPrices(
          ctx,
          id,
          (PRICE_PERIODS as readonly string[]).includes(period ?? '') ? (period as PricePeriod) : undefined,
        )
      : null,
    tab === 'pricing' && canUpdate ? activeCountries(ctx.db) : null,
    tab === 'documents' ? listDocuments(ctx, id) : null,
    tab === 'logs' ? productActivities(ctx, id, { page, items: 25 }) : null,
  ]);
  return json({
    product,
    tab,
    options,
    prices,
    countries: countries?.map((c) => ({ id: c.id, name: c.name })) ?? [],
    documents,
    logs,
    canUpdate,
    canArchive: can(ctx.actor, 'archive_product'),
    title: pageTitle(context, request, 'products.title'),
  });
}

// ---------------------------------------------------------------- the forms of the page

const DETAIL_KEYS = [
  'code',
  'name',
  'description',
  'insurer_id',
  'type',
  'policy_type',
  'scheme',
  'cover_type',
  'territorial_limit',
  'master_certificate_number',
  'effective_start_date',
  'effective_end_date',
  'min_purchase_days',
  'max_enrolment_period_days',
  'max_term_days',
  'unit_id',
  'insured_age_min',
  'insured_age_max',
  'currency',
  'max_coverage_amount',
] as const;
const CLAIM_KEYS = [
  'claim_email',
  'claim_phone',
  'medical_assistance_email',
  'medical_assistance_phone',
  'claim_details',
] as const;

const pick = <K extends readonly string[]>(keys: K) =>
  Object.fromEntries(keys.map((k) => [k, true])) as { [P in K[number]]: true };

const detailsSchema = updateProductObject
  .pick(pick(DETAIL_KEYS))
  .required({ code: true, name: true, effective_start_date: true, min_purchase_days: true, currency: true })
  .extend({ intent: z.literal('details') })
  .superRefine(productCrossRules);
const claimSchema = updateProductObject.pick(pick(CLAIM_KEYS)).extend({ intent: z.literal('claim') });
const limitsSchema = z.object({
  intent: z.literal('limits'),
  coverage_limits: z.array(coverageLimitSchema).max(50, 'products.errors.too_many_limits').default([]),
});
const statusSchema = z.object({ intent: z.literal('status'), status: z.enum(['active', 'archived']) });
const idField = z.coerce.number().int().positive();
const priceAddSchema = priceObject.extend({ intent: z.literal('price_add') }).superRefine(priceCrossRules);
const priceUpdateSchema = priceObject
  .extend({ intent: z.literal('price_update'), price_id: idField })
  .superRefine(priceCrossRules);
const priceDeleteSchema = z.object({ intent: z.literal('price_delete'), price_id: idField });
const documentAddSchema = documentObject
  .extend({ intent: z.literal('document_add') })
  .superRefine(documentCrossRules);
const documentUpdateSchema = documentObject
  .extend({ intent: z.literal('document_update'), document_id: idField })
  .superRefine(documentCrossRules);
const documentDeleteSchema = z.object({ intent: z.literal('document_delete'), document_id: idField });

const SCHEMAS = {
  details: detailsSchema,
  claim: claimSchema,
  limits: limitsSchema,
  status: statusSchema,
  price_add: priceAddSchema,
  price_update: priceUpdateSchema,
  price_delete: priceDeleteSchema,
  document_add: documentAddSchema,
  document_update: documentUpdateSchema,
  document_delete: documentDeleteSchema,
} as const;
type Intent = keyof typeof SCHEMAS;

/** A form leaves out the optional fields the user emptied: those are cleared (null), not kept. */
function withCleared<T extends Record<string, unknown>>(value: T, keys: readonly string[]): T {
  const out: Record<string, unknown> = { ...value };
  for (const k of keys) if (out[k] === undefined) out[k] = null;
  return out as T;
}

/** `stamp` is set when a form is saved: an "add" form remounts empty under a new key. */
type Answer = { intent: Intent; result: SubmissionResult<string[]>; saved: string | null; stamp?: number };

export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = requirePermissions(request, context, 'update_product|archive_product');
  const id = params.id!;
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '') as Intent;
  if (!(intent in SCHEMAS)) throw new Response('Bad Request', { status: 400 });
  const submission = parseWithZod(form, { schema: SCHEMAS[intent] as z.ZodTypeAny });
  if (submission.status !== 'success') {
    const answer: Answer = { intent, result: submission.reply(), saved: null };
    return json(answer, { status: submission.status === 'error' ? 400 : 200 });
  }
  const value = submission.value as Record<string, unknown>;
  const reply = async (run: () => Promise<unknown>, saved: string, opts: { reset?: boolean } = {}) => {
    const r = await withFormErrors(submission, () => orNotFound(run));
    const answer: Answer = {
      intent,
      result: r.ok && !opts.reset ? submission.reply() : r.ok ? { status: 'success' } : r.reply,
      saved: r.ok ? saved : null,
      stamp: r.ok ? Date.now() : undefined,
    };
    return json(answer, { status: r.ok ? 200 : r.status });
  };
  const back = (tab: Tab, saved: string) =>
    redirect(localePath(langOf(request), `/products/${id}?tab=${tab}&saved=${saved}`));
  const { intent: _intent, ...input } = value;
  switch (intent) {
    case 'details':
      return reply(() => updateProduct(ctx, id, withCleared(input, DETAIL_KEYS)), 'updated');
    case 'claim':
      return reply(() => updateProduct(ctx, id, withCleared(input, CLAIM_KEYS)), 'updated');
    case 'limits':
      return reply(() => updateProduct(ctx, id, input), 'updated');
    case 'status':
      return reply(
        () => setProductStatus(ctx, id, input.status as 'active' | 'archived'),
        input.status === 'active' ? 'activated' : 'archived',
      );
    case 'price_add':
      return reply(() => addPrice(ctx, id, input as never), 'price_added', { reset: true });
    case 'price_update': {
      const { price_id, ...price } = input;
      const r = await withFormErrors(submission, () =>
        orNotFound(() => updatePrice(ctx, id, price_id as number, price as never)),
      );
      if (!r.ok) return json({ intent, result: r.reply, saved: null } satisfies Answer, { status: r.status });
      return back('pricing', 'price_updated');
    }
    case 'price_delete':
      return reply(() => deletePrice(ctx, id, input.price_id as number), 'price_deleted');
    case 'document_add':
      return reply(() => addDocument(ctx, id, input as never, form.get('file')), 'document_added', {
        reset: true,
      });
    case 'document_update': {
      const { document_id, ...details } = input;
      const r = await withFormErrors(submission, () =>
        orNotFound(() => updateDocument(ctx, id, document_id as number, details as never, form.get('file'))),
      );
      if (!r.ok) return json({ intent, result: r.reply, saved: null } satisfies Answer, { status: r.status });
      return back('documents', 'document_updated');
    }
    case 'document_delete':
      return reply(() => deleteDocument(ctx, id, input.document_id as number), 'document_deleted');
  }
}

// ---------------------------------------------------------------- the page

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Product = LoaderData['product'];

function useAnswer() {
  const data = useActionData<typeof action>() as Answer | undefined;
  const { t } = useTranslation();
  useActionSnack(
    data?.saved ? data : null,
    'success',
    data?.saved ? t(`products.messages.${data.saved}`) : null,
  );
  useSavedParamSnack();
  return data;
}

const resultFor = (data: Answer | undefined, intent: Intent) =>
  data?.intent === intent ? data.result : undefined;

function TabBar({ current, productName }: { current: Tab; productName: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <nav className="mb-6 overflow-x-auto border-b border-slate-200" aria-label={productName}>
      <ul className="flex min-w-max gap-1">
        {TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={`${location.pathname}?tab=${tab}`}
              aria-current={tab === current ? 'page' : undefined}
              preventScrollReset
              className={`-mb-px inline-block border-b-2 px-3 py-2 text-sm font-semibold ${
                tab === current
                  ? 'border-primary-700 text-primary-800'
                  : 'border-transparent text-slate-600 hover:text-slate-900'
              }`}
            >
              {t(`products.tabs.${tab}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Facts({ items }: { items: { label: string; value: React.ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => (
        <div key={item.label}>
          <dt className="text-slate-500">{item.label}</dt>
          <dd className="mt-0.5 font-medium text-slate-900">{item.value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function productDefaults(p: Product) {
  return {
    code: p.code,
    name: p.name,
    description: str(p.description),
    insurer_id: p.insurer?.id ?? '',
    type: str(p.type),
    policy_type: str(p.policy_type),
    scheme: str(p.scheme),
    cover_type: str(p.cover_type),
    territorial_limit: str(p.territorial_limit),
    master_certificate_number: str(p.master_certificate_number),
    effective_start_date: p.effective_start_date,
    effective_end_date: str(p.effective_end_date),
    min_purchase_days: str(p.min_purchase_days),
    max_enrolment_period_days: str(p.max_enrolment_period_days),
    max_term_days: str(p.max_term_days),
    unit_id: str(p.unit_id),
    insured_age_min: str(p.insured_age_min),
    insured_age_max: str(p.insured_age_max),
    currency: p.currency,
    max_coverage_amount: p.max_coverage_amount == null ? '' : p.max_coverage_amount.toFixed(2),
    claim_email: str(p.claim_email),
    claim_phone: str(p.claim_phone),
    medical_assistance_email: str(p.medical_assistance_email),
    medical_assistance_phone: str(p.medical_assistance_phone),
    claim_details: str(p.claim_details),
  };
}

function DetailsTab({ data, loaded }: { data: Answer | undefined; loaded: LoaderData }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const { product, options, canUpdate } = loaded;
  const [form, fields] = useForm({
    id: 'details',
    lastResult: resultFor(data, 'details'),
    defaultValue: productDefaults(product),
    constraint: getZodConstraint(detailsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: detailsSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate || !options) return <ProductFacts product={product} />;
  return (
    <Card>
      <AppForm method="post" {...getFormProps(form)} className="space-y-8">
        <input type="hidden" name="intent" value="details" />
        <FormErrors errors={form.errors} />
        <ProductDetailFields fields={fields} options={options} companyId={product.company.id} />
        <Button type="submit" disabled={busy}>
          {t('common.save')}
        </Button>
      </AppForm>
    </Card>
  );
}

function ProductFacts({ product: p }: { product: Product }) {
  const { t } = useTranslation();
  const f = (k: string) => t(`products.fields.${k}`);
  return (
    <Card>
      <Facts
        items={[
          { label: f('code'), value: p.code },
          { label: f('name'), value: p.name },
          { label: f('insurer'), value: p.insurer?.name },
          { label: f('type'), value: p.type },
          { label: f('policy_type'), value: p.policy_type },
          { label: f('scheme'), value: p.scheme },
          { label: f('cover_type'), value: p.cover_type },
          {
            label: f('territorial_limit'),
            value: p.territorial_limit ? t(`products.territorial_limits.${p.territorial_limit}`) : null,
          },
          { label: f('master_certificate_number'), value: p.master_certificate_number },
          { label: f('effective_start_date'), value: formatDate(p.effective_start_date) },
          {
            label: f('effective_end_date'),
            value: p.effective_end_date ? formatDate(p.effective_end_date) : t('products.open_ended'),
          },
          { label: f('min_purchase_days'), value: p.min_purchase_days },
          { label: f('max_enrolment_period_days'), value: p.max_enrolment_period_days },
          { label: f('max_term_days'), value: p.max_term_days },
          {
            label: f('unit'),
            value: p.unit ? t(`products.units.${p.unit.name}`, { defaultValue: p.unit.name }) : null,
          },
          { label: f('insured_age_min'), value: p.insured_age_min },
          { label: f('insured_age_max'), value: p.insured_age_max },
          { label: f('currency'), value: p.currency },
          {
            label: f('max_coverage_amount'),
            value: p.max_coverage_amount != null ? formatMoney(p.max_coverage_amount, p.currency) : null,
          },
          { label: f('description'), value: p.description },
        ]}
      />
    </Card>
  );
}

function ClaimTab({
  data,
  product,
  canUpdate,
}: {
  data: Answer | undefined;
  product: Product;
  canUpdate: boolean;
}) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'claim',
    lastResult: resultFor(data, 'claim'),
    defaultValue: productDefaults(product),
    constraint: getZodConstraint(claimSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: claimSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate) {
    const f = (k: string) => t(`products.fields.${k}`);
    return (
      <Card>
        <Facts items={CLAIM_KEYS.map((k) => ({ label: f(k), value: product[k] }))} />
      </Card>
    );
  }
  return (
    <Card>
      <AppForm method="post" {...getFormProps(form)} className="space-y-6">
        <input type="hidden" name="intent" value="claim" />
        <FormErrors errors={form.errors} />
        <ClaimFields fields={fields} />
        <Button type="submit" disabled={busy}>
          {t('common.save')}
        </Button>
      </AppForm>
    </Card>
  );
}

function LimitsTab({
  data,
  product,
  canUpdate,
}: {
  data: Answer | undefined;
  product: Product;
  canUpdate: boolean;
}) {
  const { t } = useTranslation();
  const m = useMessage();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'limits',
    lastResult: resultFor(data, 'limits'),
    defaultValue: {
      coverage_limits: product.coverage_limits.length
        ? product.coverage_limits.map((l) => ({ benefit: l.benefit, limit: l.limit, excess: l.excess ?? '' }))
        : [{ benefit: '', limit: '', excess: '' }],
    },
    constraint: getZodConstraint(limitsSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: limitsSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const rows = fields.coverage_limits.getFieldList();
  const head = 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
  if (!canUpdate) {
    return (
      <Card>
        {product.coverage_limits.length === 0 ? (
          <p className="text-sm text-slate-500">{t('products.limits.empty')}</p>
        ) : (
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead>
              <tr>
                <th className={head}>{t('products.limits.benefit')}</th>
                <th className={head}>{t('products.limits.limit')}</th>
                <th className={head}>{t('products.limits.excess')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {product.coverage_limits.map((l, i) => (
                <tr key={i}>
                  <td className="px-3 py-2">{l.benefit}</td>
                  <td className="px-3 py-2">{l.limit}</td>
                  <td className="px-3 py-2">{l.excess ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    );
  }
  return (
    <Card>
      <p className="mb-4 text-sm text-slate-600">{t('products.limits.intro')}</p>
      <AppForm method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="limits" />
        <FormErrors errors={form.errors} />
        <div className="overflow-x-auto">
          <table className="min-w-full text-sm">
            <thead>
              <tr>
                <th className={head}>{t('products.limits.benefit')}</th>
                <th className={head}>{t('products.limits.limit')}</th>
                <th className={head}>{t('products.limits.excess')}</th>
                <th className={head}>
                  <span className="sr-only">{t('products.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const cells = row.getFieldset();
                return (
                  <tr key={row.key} data-testid="limit-row">
                    {(['benefit', 'limit', 'excess'] as const).map((name) => (
                      <td key={name} className="px-1 py-1 align-top">
                        <input
                          id={cells[name].id}
                          name={cells[name].name}
                          defaultValue={str(cells[name].initialValue)}
                          key={cells[name].key}
                          aria-label={`${t(`products.limits.${name}`)} ${index + 1}`}
                          aria-invalid={cells[name].errors?.length ? true : undefined}
                          className={inputClass}
                        />
                        <ErrorList id={cells[name].errorId} errors={cells[name].errors} />
                      </td>
                    ))}
                    <td className="px-1 py-1 align-top">
                      <button
                        {...form.remove.getButtonProps({ name: fields.coverage_limits.name, index })}
                        className="rounded-lg px-3 py-2.5 text-sm font-medium text-red-700 hover:bg-red-50"
                      >
                        {t('products.limits.remove')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {fields.coverage_limits.errors?.length ? (
          <p className="text-sm text-red-700">{fields.coverage_limits.errors.map((e) => m(e)).join(' ')}</p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <button
            {...form.insert.getButtonProps({
              name: fields.coverage_limits.name,
              defaultValue: { benefit: '', limit: '', excess: '' },
            })}
            className="rounded-lg bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            {t('products.limits.add_row')}
          </button>
          <Button type="submit" disabled={busy}>
            {t('common.save')}
          </Button>
        </div>
      </AppForm>
    </Card>
  );
}

function CompanyTab({ product: p }: { product: Product }) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('products.company.company')}</h2>
        <Facts
          items={[
            { label: t('products.company.name'), value: p.company.name },
            { label: t('products.company.country'), value: p.company.country_name },
            { label: t('products.company.currency'), value: p.company.currency },
          ]}
        />
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('products.company.insurer')}</h2>
        {p.insurer ? (
          <Facts
            items={[
              { label: t('products.company.name'), value: p.insurer.name },
              { label: t('products.company.email'), value: p.insurer.email },
              {
                label: t('products.company.phone'),
                value: p.insurer.phone_number
                  ? `${p.insurer.phone_country ?? ''} ${p.insurer.phone_number}`.trim()
                  : null,
              },
              { label: t('products.company.website'), value: p.insurer.website },
              { label: t('products.fields.status'), value: <ProductStatusBadge status={p.insurer.status} /> },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-500">{t('products.company.no_insurer')}</p>
        )}
      </Card>
    </div>
  );
}

type PriceRow = NonNullable<LoaderData['prices']>['items'][number];

function priceDefaults(p?: PriceRow) {
  if (!p) return { flat: '', destination_country_ids: [] as string[] };
  return {
    min_days: String(p.min_days),
    max_days: String(p.max_days),
    net: p.net?.toFixed(2) ?? '',
    sale: p.sale?.toFixed(2) ?? '',
    custom: p.custom == null ? '' : p.custom.toFixed(2),
    flat: p.flat ? 'on' : '',
    from_date: str(p.from_date),
    to_date: str(p.to_date),
    region_code: str(p.region_code),
    destination_country_ids: p.destination_country_ids.map(String),
  };
}

function PriceForm({
  data,
  loaded,
  editing,
}: {
  data: Answer | undefined;
  loaded: LoaderData;
  editing?: PriceRow;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const intent = editing ? 'price_update' : 'price_add';
  const schema = editing ? priceUpdateSchema : priceAddSchema;
  const [form, fields] = useForm({
    id: editing ? `price-${editing.id}` : 'price-new',
    lastResult: data?.saved ? undefined : resultFor(data, intent),
    defaultValue: priceDefaults(editing),
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold">
        {editing
          ? t('products.prices.edit_title', { min: editing.min_days, max: editing.max_days })
          : t('products.prices.add_title')}
      </h2>
      <AppForm method="post" {...getFormProps(form)} className="space-y-6" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        {editing ? <input type="hidden" name="price_id" value={editing.id} /> : null}
        <FormErrors errors={form.errors} />
        <PriceFields fields={fields} countries={loaded.countries} currency={loaded.product.currency} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {editing ? t('common.save') : t('products.prices.add')}
          </Button>
          {editing ? (
            <ButtonLink to={`${location.pathname}?tab=pricing`} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          ) : null}
        </div>
      </AppForm>
    </Card>
  );
}

function DeleteButton({
  intent,
  idName,
  id,
  label,
  confirm,
}: {
  intent: Intent;
  idName: string;
  id: number;
  label: string;
  confirm: string;
}) {
  const busy = useNavigation().state === 'submitting';
  return (
    <AppForm
      method="post"
      preventScrollReset
      onSubmit={(e) => {
        if (!window.confirm(confirm)) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={idName} value={id} />
      <button type="submit" disabled={busy} className="font-medium text-red-700 hover:underline">
        {label}
      </button>
    </AppForm>
  );
}

function PricingTab({ data, loaded }: { data: Answer | undefined; loaded: LoaderData }) {
  const { t } = useTranslation();
  const m = useMessage();
  const location = useLocation();
  const [params] = useSearchParams();
  const { product, prices, canUpdate } = loaded;
  if (!prices) return null;
  const editingId = Number(params.get('price'));
  const editing = prices.items.find((p) => p.id === editingId);
  const period = params.get('period') ?? '';
  const deleteError = data?.intent === 'price_delete' ? data.result.error?.[''] : null;
  const th =
    'whitespace-nowrap px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
  const destination = (p: PriceRow) =>
    p.region_code
      ? t(`products.regions.${p.region_code}`)
      : p.destination_countries.length
        ? p.destination_countries.map((c) => c.name).join(', ')
        : t('products.prices.anywhere');
  const periodLabel = (p: PriceRow) =>
    p.from_date || p.to_date
      ? `${p.from_date ? formatDate(p.from_date) : '…'} – ${p.to_date ? formatDate(p.to_date) : '…'}`
      : t('products.prices.no_dates');
  return (
    <div className="space-y-6">
      <nav className="flex flex-wrap gap-2" aria-label={t('products.prices.periods_filter')}>
        {['', ...PRICE_PERIODS].map((p) => (
          <Link
            key={p || 'all'}
            to={`${location.pathname}?tab=pricing${p ? `&period=${p}` : ''}`}
            preventScrollReset
            aria-current={period === p ? 'page' : undefined}
            className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset ${
              period === p
                ? 'bg-primary-800 text-white ring-primary-800'
                : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
            }`}
          >
            {p ? t(`products.periods.${p}`) : t('products.periods.all')}
          </Link>
        ))}
      </nav>
      {deleteError?.length ? <Alert>{deleteError.map((e) => m(e)).join(' ')}</Alert> : null}
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t('products.tabs.pricing')}</caption>
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('products.prices.days')}</th>
                <th className={`${th} text-right`}>{t('products.prices.net')}</th>
                <th className={`${th} text-right`}>{t('products.prices.sale')}</th>
                <th className={`${th} text-right`}>{t('products.prices.custom')}</th>
                <th className={th}>{t('products.prices.period')}</th>
                <th className={th}>{t('products.prices.destination')}</th>
                <th className={th}>
                  <span className="sr-only">{t('products.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {prices.items.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-4 py-10 text-center text-slate-500">
                    {t('products.prices.empty')}
                  </td>
                </tr>
              ) : (
                prices.items.map((p) => (
                  <tr
                    key={p.id}
                    data-testid="price-row"
                    className={p.id === editingId ? 'bg-primary-50/50' : undefined}
                  >
                    <td className="whitespace-nowrap px-4 py-3">
                      {t('products.prices.days_range', { min: p.min_days, max: p.max_days })}
                      {p.flat ? (
                        <span className="ml-2 text-xs text-slate-500">{t('products.prices.flat_short')}</span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatMoney(p.net, p.currency)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatMoney(p.sale, p.currency)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatMoney(p.custom, p.currency)}</td>
                    <td className="px-4 py-3">
                      <div className="flex flex-col gap-1">
                        <PeriodBadge period={p.period} />
                        <span className="text-xs text-slate-500">{periodLabel(p)}</span>
                      </div>
                    </td>
                    <td className="px-4 py-3">{destination(p)}</td>
                    <td className="px-4 py-3">
                      {canUpdate ? (
                        <div className="flex justify-end gap-3">
                          <Link
                            to={`${location.pathname}?tab=pricing&price=${p.id}`}
                            preventScrollReset
                            className="font-medium text-primary-800 hover:underline"
                          >
                            {t('products.edit')}
                          </Link>
                          <DeleteButton
                            intent="price_delete"
                            idName="price_id"
                            id={p.id}
                            label={t('products.delete')}
                            confirm={t('products.prices.delete_confirm')}
                          />
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {canUpdate ? (
        <PriceForm
          key={editing?.id ?? `new-${data?.intent === 'price_add' ? (data.stamp ?? 0) : 0}`}
          data={data}
          loaded={loaded}
          editing={editing}
        />
      ) : null}
      <p className="text-xs text-slate-500">
        {t('products.prices.rules', { days: product.min_purchase_days, currency: product.currency })}
      </p>
    </div>
  );
}

type DocumentRow = NonNullable<LoaderData['documents']>['items'][number];

function DocumentForm({ data, editing }: { data: Answer | undefined; editing?: DocumentRow }) {
  const { t } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const intent = editing ? 'document_update' : 'document_add';
  const schema = editing ? documentUpdateSchema : documentAddSchema;
  const [form, fields] = useForm({
    id: editing ? `document-${editing.id}` : 'document-new',
    lastResult: data?.saved ? undefined : resultFor(data, intent),
    defaultValue: editing
      ? {
          type: editing.type,
          language: editing.language,
          title: editing.title,
          description: str(editing.description),
          visibility: editing.visibility,
          valid_from: str(editing.valid_from),
          valid_to: str(editing.valid_to),
        }
      : { language: 'en', visibility: 'clients' },
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold">
        {editing
          ? t('products.documents.edit_title', { title: editing.title })
          : t('products.documents.add_title')}
      </h2>
      <AppForm
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        className="space-y-6"
        preventScrollReset
      >
        <input type="hidden" name="intent" value={intent} />
        {editing ? <input type="hidden" name="document_id" value={editing.id} /> : null}
        <FormErrors errors={form.errors} />
        <DocumentFields fields={fields} />
        <FileField
          field={(fields as unknown as Record<string, Parameters<typeof FileField>[0]['field']>).file}
          label={editing ? t('products.documents.replace_file') : t('products.documents.file')}
          hint={
            editing
              ? t('products.documents.replace_hint', { name: editing.file_name })
              : t('products.documents.file_hint')
          }
          required={!editing}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {editing ? t('common.save') : t('products.documents.upload')}
          </Button>
          {editing ? (
            <ButtonLink to={`${location.pathname}?tab=documents`} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          ) : null}
        </div>
      </AppForm>
    </Card>
  );
}

function DocumentsTab({ data, loaded }: { data: Answer | undefined; loaded: LoaderData }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const { documents, canUpdate, product } = loaded;
  if (!documents) return null;
  const editingId = Number(params.get('document'));
  const editing = documents.items.find((d) => d.id === editingId);
  const th =
    'whitespace-nowrap px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
  const validity = (d: DocumentRow) =>
    d.valid_from || d.valid_to
      ? `${d.valid_from ? formatDate(d.valid_from) : '…'} – ${d.valid_to ? formatDate(d.valid_to) : '…'}`
      : t('products.documents.always_valid');
  return (
    <div className="space-y-6">
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t('products.tabs.documents')}</caption>
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('products.documents.title')}</th>
                <th className={th}>{t('products.documents.type')}</th>
                <th className={th}>{t('products.documents.language')}</th>
                <th className={th}>{t('products.documents.visibility')}</th>
                <th className={th}>{t('products.documents.validity')}</th>
                <th className={th}>
                  <span className="sr-only">{t('products.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {documents.items.length === 0 ? (
                <tr>
                  <td colSpan={6} className="px-4 py-10 text-center text-slate-500">
                    {t('products.documents.empty')}
                  </td>
                </tr>
              ) : (
                documents.items.map((d) => (
                  <tr key={d.id} data-testid="document-row">
                    <td className="px-4 py-3">
                      <p className="font-medium text-slate-900">{d.title}</p>
                      <p className="text-xs text-slate-500">
                        {d.file_name} · {Math.max(1, Math.round(d.size / 1024))} KB ·{' '}
                        {formatDateTime(d.updated_at)}
                      </p>
                    </td>
                    <td className="px-4 py-3">
                      {t(`products.document_types.${d.type}`, { defaultValue: d.type })}
                    </td>
                    <td className="px-4 py-3">{t(`products.languages.${d.language}`)}</td>
                    <td className="px-4 py-3">{t(`products.visibilities.${d.visibility}`)}</td>
                    <td className="whitespace-nowrap px-4 py-3">{validity(d)}</td>
                    <td className="px-4 py-3">
                      <div className="flex justify-end gap-3">
                        <a
                          href={`/products/${product.id}/documents/${d.id}/download`}
                          className="font-medium text-primary-800 hover:underline"
                          download
                        >
                          {t('products.documents.download')}
                        </a>
                        {canUpdate ? (
                          <>
                            <Link
                              to={`${location.pathname}?tab=documents&document=${d.id}`}
                              preventScrollReset
                              className="font-medium text-primary-800 hover:underline"
                            >
                              {t('products.edit')}
                            </Link>
                            <DeleteButton
                              intent="document_delete"
                              idName="document_id"
                              id={d.id}
                              label={t('products.delete')}
                              confirm={t('products.documents.delete_confirm')}
                            />
                          </>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {canUpdate ? (
        <DocumentForm
          key={editing?.id ?? `new-${data?.intent === 'document_add' ? (data.stamp ?? 0) : 0}`}
          data={data}
          editing={editing}
        />
      ) : null}
    </div>
  );
}

function StatusAction({ product, canArchive }: { product: Product; canArchive: boolean }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  if (!canArchive) return null;
  const next = product.status === 'active' ? 'archived' : 'active';
  return (
    <AppForm method="post" preventScrollReset>
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="status" value={next} />
      <Button type="submit" variant={next === 'archived' ? 'secondary' : 'primary'} disabled={busy}>
        {t(next === 'archived' ? 'products.archive' : 'products.activate')}
      </Button>
    </AppForm>
  );
}

/** The names the logs tab gives the fields of products, prices and documents. */
function useLogFieldLabels(): Record<string, string> {
  const { t } = useTranslation();
  const product = [...DETAIL_KEYS, ...CLAIM_KEYS, 'insurer', 'unit', 'status'].map((k) => [
    k,
    t(`products.fields.${k === 'insurer_id' ? 'insurer' : k === 'unit_id' ? 'unit' : k}`),
  ]);
  const price = ['min_days', 'max_days', 'net', 'sale', 'custom', 'flat', 'from_date', 'to_date'].map((k) => [
    k,
    t(`products.prices.${k}`),
  ]);
  const document = ['language', 'title', 'visibility', 'valid_from', 'valid_to'].map((k) => [
    k,
    t(`products.documents.${k}`),
  ]);
  return Object.fromEntries([
    ...product,
    ...price,
    ...document,
    ['region_code', t('products.prices.region')],
    ['destination_countries', t('products.prices.countries')],
    ['coverage_limits', t('products.tabs.limits')],
    ['file_name', t('products.documents.file')],
  ]);
}

export default function ProductPage() {
  const { t, i18n } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const data = useAnswer();
  const logLabels = useLogFieldLabels();
  const { product, tab } = loaded;
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {product.name}
            <ProductStatusBadge status={product.status} />
          </span>
        }
        description={`${product.code} · ${product.company.name}${product.insurer ? ` · ${product.insurer.name}` : ''}`}
        actions={
          <>
            <ButtonLink to={localePath(i18n.language, '/products')} variant="secondary">
              {t('products.back_to_list')}
            </ButtonLink>
            <StatusAction product={product} canArchive={loaded.canArchive} />
          </>
        }
      />
      <TabBar current={tab} productName={product.name} />
      {tab === 'details' ? <DetailsTab key={product.updated_at} data={data} loaded={loaded} /> : null}
      {tab === 'claim' ? (
        <ClaimTab key={product.updated_at} data={data} product={product} canUpdate={loaded.canUpdate} />
      ) : null}
      {tab === 'limits' ? (
        <LimitsTab key={product.updated_at} data={data} product={product} canUpdate={loaded.canUpdate} />
      ) : null}
      {tab === 'company' ? <CompanyTab product={product} /> : null}
      {tab === 'pricing' ? <PricingTab data={data} loaded={loaded} /> : null}
      {tab === 'documents' ? <DocumentsTab data={data} loaded={loaded} /> : null}
      {tab === 'logs' && loaded.logs ? (
        <ActivityLog
          rows={loaded.logs.items}
          meta={loaded.logs.meta}
          fieldLabels={logLabels}
          actionLabels={Object.fromEntries(
            [
              'created',
              'updated',
              'activated',
              'archived',
              'price_added',
              'price_updated',
              'price_deleted',
              'document_added',
              'document_updated',
              'document_replaced',
              'document_deleted',
            ].map((a) => [a, t(`products.log_actions.${a}`)]),
          )}
        />
      ) : null}
    </div>
  );
}
