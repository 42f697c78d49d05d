/**
 * /insureds/amendments/{id}: the quote of an extension, a trip-date change or a cancellation, then its
 * confirmation. Asks the new end date (extend), the new trip dates (trip dates) or the reason (cancel);
 * shows per insured and in total the premium and tax difference and what will be charged (supplementary
 * invoice) or credited (credit note), the line errors (readable on a phone: under each insured's name),
 * the counts (with dependants for a cancellation); Confirm (with a prompt) applies it once. A quote whose
 * insureds changed since says so and offers to quote again; a large confirmation shows a progress bar.
 */
import { getFormProps } from '@conform-to/react';
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AMEND_PERMISSION } from '@server/domain/policies/amendments/values';
import { useSchemaForm } from '~/lib/schema-form';
import {
  amendmentViewQuerySchema,
  constraintsOf,
  emptySchema,
  idSchema,
  quoteInputSchema,
} from '~/lib/schemas.server';
import { intentAction, unreachable } from '~/lib/actions';
import { RefreshWhile } from '~/components/ui/refresh-while';
import { confirmAmendment, getAmendment, quoteAmendment } from '~/lib/amendments.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { AppForm, Field, TextAreaField } from '~/components/forms';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { ConfirmButton } from '~/components/ui/confirm';
import { msg } from '@server/domain/messages';
import { DataTable, type Column } from '~/components/ui/data-table';
import { Facts } from '~/components/ui/facts';
import { StatusBadge } from '~/components/ui/status-badge';
import { ProgressBar } from '~/components/imports/import-bits';
import { SameBandNote, SelectedInsureds } from '~/components/insureds/amendment-bits';
import { InvoiceLink } from '~/components/invoices/invoice-link';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: AMEND_PERMISSION,
    params: idSchema,
    query: amendmentViewQuerySchema,
    async load({ ctx, request, context, params, query }) {
      const view = await getAmendment(ctx, params.id, query);
      return json({
        constraint: constraintsOf(quoteInputSchema),
        view,
        errorsOnly: query.errors_only,
        title: pageTitle(context, request, `amendments.kinds.${view.kind}.title`),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      quote: { schema: quoteInputSchema, permission: AMEND_PERMISSION },
      confirm: {
        schema: emptySchema,
        permission: AMEND_PERMISSION,
        // Applying moves money (a supplementary invoice or a credit note) and changes the policies at once.
        confirm: {
          question: async (_input: unknown, { ctx, params }) => {
            const view = await getAmendment(ctx, (params as { id: string }).id);
            const currency = view.totals.currency ?? view.documents[0]?.currency ?? 'GBP';
            const t = view.totals;
            return msg('amendments.quote.confirm_prompt', {
              count: view.counts.policies,
              charge: formatMinor(t.charge_minor + t.charge_tax_minor, currency),
              credit: formatMinor(t.credit_minor + t.credit_tax_minor, currency),
            });
          },
          button: 'amendments.quote.confirm',
          tone: 'primary',
        },
      },
    },
    async handle(input, { ctx, params, redirect }) {
      const self = `/insureds/amendments/${params.id}`;
      switch (input.intent) {
        case 'quote':
          await quoteAmendment(ctx, params.id, input);
          return redirect(self);
        case 'confirm': {
          const result = await confirmAmendment(ctx, params.id);
          return result.status === 'confirmed'
            ? redirect(self, 'amendments.messages.updated')
            : redirect(self);
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

type View = ReturnType<typeof useLoaderData<typeof loader>>['view'];
type Line = View['lines']['items'][number];

const STATUS_TONE = { draft: 'slate', quoted: 'blue', confirmed: 'green', stale: 'red' } as const;

const signedMoney = (minor: number, currency: string) =>
  `${minor > 0 ? '+' : minor < 0 ? '−' : ''}${formatMinor(Math.abs(minor), currency)}`;

function Money({ minor, currency, signed = false }: { minor: number; currency: string; signed?: boolean }) {
  const text = formatMinor(Math.abs(minor), currency);
  if (!signed || minor === 0) return <>{text}</>;
  return (
    <span
      className={minor > 0 ? 'text-slate-900' : 'text-green-800'}
    >{`${minor > 0 ? '+' : '−'}${text}`}</span>
  );
}

export default function AmendmentPage() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { view, errorsOnly, constraint } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const lp = (path: string) => localePath(i18n.language, path);
  const confirming = !!view.job && view.status !== 'confirmed' && view.job.status !== 'failed';

  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/policies/amendments/schema').then((m) => m.quoteInputSchema),
    id: `quote-${view.id}`,
    lastResult: answer?.intent === 'quote' ? answer.submission : undefined,
    constraint,
    shouldValidate: 'onBlur',
    defaultValue: {
      new_start_date: view.new_start_date ?? view.lines.items[0]?.old_start_date ?? '',
      new_end_date: view.new_end_date ?? '',
      reason: view.reason ?? '',
    },
  });

  const kind = view.kind;
  const quoted = view.status === 'quoted' || view.status === 'stale';
  const currency = view.totals.currency ?? view.documents[0]?.currency ?? 'GBP';
  const charge = view.totals.charge_minor + view.totals.charge_tax_minor;
  const credit = view.totals.credit_minor + view.totals.credit_tax_minor;
  const canConfirm = view.status === 'quoted' && view.counts.with_errors === 0 && !confirming;
  const prompt = t('amendments.quote.confirm_prompt', {
    count: view.counts.policies,
    charge: formatMinor(charge, currency),
    credit: formatMinor(credit, currency),
  });

  const columns: Column<Line>[] = [
    {
      key: 'insured',
      header: t('amendments.lines.insured'),
      render: (l) => (
        <div className="min-w-48">
          <div className="font-medium text-slate-900">{`${l.policy.first_name} ${l.policy.last_name}`}</div>
          <div className="text-xs text-slate-500">
            {l.policy.policy_number} · {t(`amendments.types.${l.policy.type}`)}
            {l.because_of ? ` · ${t('amendments.lines.because_of', { policy: l.because_of })}` : ''}
          </div>
          <div className="mt-1 text-xs text-slate-700 sm:hidden">
            {t('amendments.lines.diff_short', {
              premium: signedMoney(l.premium_diff_minor, l.currency),
              tax: signedMoney(l.tax_diff_minor, l.currency),
            })}
          </div>
          {l.errors.length ? (
            <ul className="mt-1 list-disc pl-4 text-xs text-red-700" data-testid="line-errors">
              {l.errors.map((e, i) => (
                <li key={i}>{m(e.params ? `${e.message}|${JSON.stringify(e.params)}` : e.message)}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ),
    },
    {
      key: 'dates',
      header: t('amendments.lines.dates'),
      render: (l) => (
        <div className="whitespace-nowrap text-sm">
          <div>{`${britishDate(l.old_start_date)} – ${britishDate(l.old_end_date)}`}</div>
          {kind === 'cancel' ? (
            <div className="text-red-700">{t('amendments.lines.cancelled')}</div>
          ) : l.new_end_date ? (
            <div className="font-medium">{`→ ${britishDate(l.new_start_date)} – ${britishDate(l.new_end_date)}`}</div>
          ) : null}
        </div>
      ),
    },
    {
      key: 'premium',
      header: t('amendments.lines.premium'),
      className: 'text-right',
      render: (l) => <Money minor={l.premium_diff_minor} currency={l.currency} signed />,
    },
    {
      key: 'tax',
      header: t('amendments.lines.tax'),
      className: 'text-right',
      render: (l) => <Money minor={l.tax_diff_minor} currency={l.currency} signed />,
    },
  ];

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <RefreshWhile running={confirming} />
      <PageHeader
        title={t(`amendments.kinds.${kind}.title`)}
        description={t(`amendments.kinds.${kind}.description`)}
        actions={
          <ButtonLink to={lp('/insureds')} variant="secondary">
            {t('amendments.back_to_list')}
          </ButtonLink>
        }
      />
      {answer?.error ? <Alert>{m(answer.error)}</Alert> : null}
      {view.status === 'confirmed' ? (
        <div data-testid="amendment-result" className="space-y-4">
          <Alert tone="success">{m('amendments.messages.updated')}</Alert>
          {view.invoices.length ? (
            <Card>
              <h2 className="mb-3 text-base font-semibold text-slate-900">
                {t('amendments.result.documents')}
              </h2>
              <ul className="divide-y divide-slate-100">
                {view.invoices.map((inv) => (
                  <li
                    key={inv.id}
                    className="flex flex-wrap items-center justify-between gap-3 py-3"
                    data-testid="amendment-invoice"
                  >
                    <div>
                      <div className="font-medium text-slate-900">
                        <InvoiceLink
                          invoice={inv}
                          sentence={t(`amendments.result.${inv.type}`, { number: inv.number })}
                        />
                      </div>
                      <div className="text-sm text-slate-600">{inv.client.name}</div>
                    </div>
                    <div className="flex items-center gap-3">
                      <span className="font-semibold" data-testid="invoice-amount">
                        {formatMinor(inv.total_minor, inv.currency)}
                      </span>
                      {inv.type === 'supplementary' && inv.status !== 'paid' ? (
                        <ButtonLink to={lp(`/insureds/payment?invoice=${inv.id}`)}>
                          {t('amendments.result.pay')}
                        </ButtonLink>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ul>
            </Card>
          ) : (
            <p className="text-sm text-slate-600">{t('amendments.result.no_money')}</p>
          )}
        </div>
      ) : null}
      {view.status === 'stale' ? (
        <div data-testid="stale-notice">
          <Alert>{m('amendments.errors.stale')}</Alert>
        </div>
      ) : null}
      {confirming ? (
        <Card>
          <p className="mb-3 text-sm text-slate-700">
            {t('amendments.quote.applying', { count: view.counts.policies })}
          </p>
          <ProgressBar percent={view.job!.percent} label={t('amendments.quote.progress')} />
        </Card>
      ) : view.job?.status === 'failed' ? (
        <Alert>{view.job.message ?? m('amendments.errors.failed')}</Alert>
      ) : null}

      <Card>
        <Facts
          items={[
            { label: t('amendments.counts.selected'), value: view.counts.selected, testId: 'count-selected' },
            ...(kind === 'cancel'
              ? [
                  {
                    label: t('amendments.counts.dependants'),
                    value: view.counts.dependants,
                    testId: 'count-dependants',
                  },
                  {
                    label: t('amendments.counts.group_members'),
                    value: view.counts.group_members,
                    testId: 'count-group-members',
                  },
                ]
              : []),
            { label: t('amendments.counts.total'), value: view.counts.policies, testId: 'count-total' },
            {
              label: t('amendments.counts.status'),
              value: (
                <StatusBadge tone={STATUS_TONE[view.status]}>
                  {t(`amendments.statuses.${view.status}`)}
                </StatusBadge>
              ),
            },
          ]}
        />
      </Card>

      {view.status === 'draft' ? (
        <Card>
          <SelectedInsureds lines={view.lines.items} meta={view.lines.meta} />
        </Card>
      ) : null}

      {view.status !== 'confirmed' && !confirming ? (
        <Card>
          <AppForm method="post" {...getFormProps(form)} className="space-y-4">
            {kind !== 'cancel' ? (
              <div className="grid gap-4 sm:grid-cols-2">
                {kind === 'trip_dates' ? (
                  <Field
                    label={t('amendments.fields.new_start_date')}
                    field={fields.new_start_date}
                    type="date"
                  />
                ) : null}
                <Field label={t('amendments.fields.new_end_date')} field={fields.new_end_date} type="date" />
              </div>
            ) : null}
            {kind === 'cancel' ? (
              <TextAreaField label={t('amendments.fields.reason')} field={fields.reason} rows={3} />
            ) : null}
            <Button
              type="submit"
              name="intent"
              value="quote"
              variant={quoted ? 'secondary' : 'primary'}
              disabled={busy}
            >
              {quoted ? t('amendments.quote.again') : t('amendments.quote.get')}
            </Button>
          </AppForm>
        </Card>
      ) : null}

      {quoted || view.status === 'confirmed' ? (
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">{t('amendments.quote.title')}</h2>
          <div className="grid gap-3 sm:grid-cols-2" data-testid="quote-totals">
            <div className="rounded-lg bg-slate-50 p-4">
              <div className="text-sm text-slate-600">{t('amendments.quote.charge')}</div>
              <div className="text-xl font-semibold text-slate-900" data-testid="total-charge">
                {formatMinor(charge, currency)}
              </div>
              <div className="text-xs text-slate-500">
                {t('amendments.quote.premium_tax', {
                  premium: formatMinor(view.totals.charge_minor, currency),
                  tax: formatMinor(view.totals.charge_tax_minor, currency),
                })}
              </div>
            </div>
            <div className="rounded-lg bg-slate-50 p-4">
              <div className="text-sm text-slate-600">{t('amendments.quote.credit')}</div>
              <div className="text-xl font-semibold text-green-800" data-testid="total-credit">
                {formatMinor(credit, currency)}
              </div>
              <div className="text-xs text-slate-500">
                {t('amendments.quote.premium_tax', {
                  premium: formatMinor(view.totals.credit_minor, currency),
                  tax: formatMinor(view.totals.credit_tax_minor, currency),
                })}
              </div>
            </div>
          </div>
          {view.documents.length > 1 ? (
            <ul className="mt-3 space-y-1 text-sm text-slate-700">
              {view.documents.map((d) => (
                <li key={`${d.client.id}-${d.currency}`}>
                  {t('amendments.quote.per_client', {
                    client: d.client.name,
                    charge: formatMinor(d.charge_minor + d.charge_tax_minor, d.currency),
                    credit: formatMinor(d.credit_minor + d.credit_tax_minor, d.currency),
                  })}
                </li>
              ))}
            </ul>
          ) : null}
          {kind !== 'cancel' && charge === 0 && credit === 0 ? (
            <SameBandNote lines={view.lines.items} />
          ) : null}
          <p className="mt-3 text-sm text-slate-600">{t('amendments.quote.documents_note')}</p>
          {view.counts.with_errors ? (
            <div className="mt-4 space-y-2" data-testid="quote-errors">
              <Alert>
                {view.counts.cancelled ? (
                  <strong className="block">{m('amendments.errors.cancelled_title')}</strong>
                ) : null}
                {t('amendments.quote.with_errors', { count: view.counts.with_errors })}
              </Alert>
            </div>
          ) : null}
          {view.status === 'quoted' ? (
            <AppForm method="post" className="mt-4">
              <ConfirmButton
                name="intent"
                value="confirm"
                disabled={!canConfirm || busy}
                className={buttonClass('primary')}
                question={prompt}
                tone="primary"
              >
                {t('amendments.quote.confirm')}
              </ConfirmButton>
            </AppForm>
          ) : null}
        </Card>
      ) : null}

      {view.status !== 'draft' ? (
        <section aria-labelledby="lines-title" className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="lines-title" className="text-base font-semibold text-slate-900">
              {t('amendments.lines.title')}
            </h2>
            {view.counts.with_errors || errorsOnly ? (
              <Link
                to={errorsOnly ? '?' : '?errors_only=true'}
                className="text-sm font-medium text-primary-700 hover:underline"
              >
                {errorsOnly ? t('amendments.lines.show_all') : t('amendments.lines.only_errors')}
              </Link>
            ) : null}
          </div>
          <DataTable
            rows={view.lines.items}
            columns={columns}
            rowId={(l) => l.policy.id}
            meta={view.lines.meta}
            caption={t('amendments.lines.title')}
          />
        </section>
      ) : null}
    </div>
  );
}
