/**
 * /invoices/reconciliation/{id}: the review of a bank statement. Counts and totals; the credits (50 a
 * page, by state) with the invoice(s) each pays; a credit that did not match is allocated by hand (find
 * an invoice by number or client, split the amount over several, never more than the credit nor the
 * invoice's balance) or ignored; confirming records one bank-transfer payment per allocation, once.
 * Every form is a plain post (works without JavaScript).
 */
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import {
  BANK_LINE_STATUSES,
  READ_PERMISSION,
  RECONCILE_PERMISSION,
} from '@server/domain/reconciliation/values';
import { linesQuerySchema, reviewIntentSchemas, idSchema } from '~/lib/schemas.server';
import {
  addAllocation,
  confirmStatement,
  findAllocatableInvoices,
  ignoreLine,
  removeAllocation,
} from '@server/domain/reconciliation/review';
import { getStatement, statementLines, type LineView } from '@server/domain/reconciliation/service';
import { formatMinor } from '~/lib/money';
import { intentAction, unreachable } from '~/lib/actions';
import { lenientQuery, queryOf } from '~/lib/lists.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, Input, Label } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Pagination, ScrollBox } from '~/components/ui/data-table';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { CountChips } from '~/components/ui/count-chips';
import { useAnswerError } from '~/components/ui/snackbar';
import { LineStatusBadge, StatementStatusBadge } from '~/components/reconciliation/bits';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: READ_PERMISSION,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const id = params.id;
      const statement = await getStatement(ctx, id);
      if (statement.status === 'mapping')
        throw redirect(localePath(ctx.lang ?? 'en', `/invoices/reconciliation/${id}/match-columns`));
      const raw = queryOf(request);
      const q = lenientQuery(linesQuerySchema, raw);
      const find = (raw.find ?? '').slice(0, 100);
      return {
        statement,
        lines: await statementLines(ctx, id, q),
        find,
        found: find ? await findAllocatableInvoices(ctx, id, find) : [],
        canChange: can(ctx.actor, RECONCILE_PERMISSION) && statement.status === 'review',
        title: pageTitle(context, request, 'reconciliation.review.title'),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      allocate: { schema: reviewIntentSchemas.allocate, permission: RECONCILE_PERMISSION },
      remove: { schema: reviewIntentSchemas.remove, permission: RECONCILE_PERMISSION },
      ignore: { schema: reviewIntentSchemas.ignore, permission: RECONCILE_PERMISSION },
      confirm: { schema: reviewIntentSchemas.confirm, permission: RECONCILE_PERMISSION },
    },
    async handle(input, { ctx, params, redirect }) {
      const id = params.id;
      switch (input.intent) {
        case 'allocate':
          await addAllocation(ctx, id, input.line, {
            invoice: input.invoice,
            amount_minor: Math.round(input.amount * 100),
          });
          return { toast: 'reconciliation.toasts.allocated' };
        case 'remove':
          await removeAllocation(ctx, id, input.allocation);
          return { toast: 'reconciliation.toasts.removed' };
        case 'ignore':
          await ignoreLine(ctx, id, input.line, input.ignored === 'true');
          return {
            toast:
              input.ignored === 'true' ? 'reconciliation.toasts.ignored' : 'reconciliation.toasts.restored',
          };
        case 'confirm':
          await confirmStatement(ctx, id);
          return redirect(`/invoices/reconciliation/${id}`, 'reconciliation.toasts.confirmed');
        default:
          return unreachable(input);
      }
    },
  })(args);

function money(minor: number, currency: string) {
  return formatMinor(minor, currency);
}

export default function ReviewStatement() {
  const { t, i18n } = useTranslation();
  const { statement: s, lines, find, found, canChange } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useAnswerError(answer);
  const [params] = useSearchParams();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const base = `/invoices/reconciliation/${s.id}`;
  const current = params.get('status') ?? '';
  const toRecord = s.counts.matched + s.counts.allocated;
  const filterLink = (status: string) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (status) next.set('status', status);
    else next.delete('status');
    const qs = next.toString();
    return `${to(base)}${qs ? `?${qs}` : ''}`;
  };
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={t('reconciliation.review.title')}
        description={
          <>
            {t('reconciliation.review.summary', { file: s.file_name, date: formatDateTime(s.created_at) })}{' '}
            <StatementStatusBadge status={s.status} />
          </>
        }
        actions={
          <>
            {canChange && s.format === 'csv' && s.counts.allocated === 0 ? (
              <ButtonLink to={to(`${base}/match-columns`)} variant="secondary">
                {t('reconciliation.review.match_columns_again')}
              </ButtonLink>
            ) : null}
            <ButtonLink to={to('/invoices/reconciliation')} variant="secondary">
              {t('reconciliation.title')}
            </ButtonLink>
          </>
        }
      />
      {s.status === 'confirmed' && s.confirmed_at ? (
        <Alert tone="success">
          {t('reconciliation.review.confirmed', { date: formatDateTime(s.confirmed_at) })}
        </Alert>
      ) : null}
      <SummaryTiles
        tiles={[
          { label: t('reconciliation.review.credits'), value: s.line_count },
          { label: t('reconciliation.review.matched'), value: s.counts.matched + s.counts.allocated },
          { label: t('reconciliation.review.unmatched'), value: s.counts.unmatched },
          {
            label:
              s.status === 'confirmed'
                ? t('reconciliation.review.recorded')
                : t('reconciliation.review.ignored'),
            value: s.status === 'confirmed' ? s.counts.recorded : s.counts.ignored,
          },
        ]}
      />
      <Card flush>
        <ScrollBox label={t('reconciliation.review.total')}>
          <table className="min-w-full text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2">
                  {t('reconciliation.review.currency')}
                </th>
                <th scope="col" className="px-4 py-2 text-right">
                  {t('reconciliation.review.total')}
                </th>
                <th scope="col" className="px-4 py-2 text-right">
                  {s.status === 'confirmed'
                    ? t('reconciliation.review.recorded')
                    : t('reconciliation.review.to_record')}
                </th>
                <th scope="col" className="px-4 py-2 text-right">
                  {t('reconciliation.review.not_allocated')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {s.totals.map((x) => (
                <tr key={x.currency}>
                  <th scope="row" className="px-4 py-2 text-left font-medium text-slate-900">
                    {x.currency}
                  </th>
                  <td className="px-4 py-2 text-right">{money(x.credits_minor, x.currency)}</td>
                  <td className="px-4 py-2 text-right font-semibold">
                    {money(x.allocated_minor, x.currency)}
                  </td>
                  <td className="px-4 py-2 text-right">{money(x.unallocated_minor, x.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </Card>
      {canChange ? (
        <Card>
          <Form method="get" className="flex flex-wrap items-end gap-3" preventScrollReset>
            {current ? <input type="hidden" name="status" value={current} /> : null}
            <div className="min-w-0 flex-1">
              <Label htmlFor="find-invoice">{t('reconciliation.review.find_invoice')}</Label>
              <Input id="find-invoice" name="find" defaultValue={find} type="search" />
            </div>
            <Button type="submit" variant="secondary">
              {t('reconciliation.review.find')}
            </Button>
          </Form>
          {find ? (
            found.length ? (
              <ul
                className="mt-4 divide-y divide-slate-100 text-sm"
                aria-label={t('reconciliation.review.find_invoice')}
              >
                {found.map((f) => (
                  <li key={f.id} className="flex flex-wrap justify-between gap-2 py-2">
                    <span>
                      <InvoiceLink
                        number={f.number}
                        clientId={f.client_id}
                        invoiceId={f.id}
                        variant="inline"
                      />{' '}
                      · {f.client_name} · {formatDate(f.due_at)}
                    </span>
                    <span className="text-slate-700">
                      {t('reconciliation.review.balance', { amount: money(f.available_minor, f.currency) })}
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-4 text-sm text-slate-600">{t('reconciliation.review.none_found')}</p>
            )
          ) : null}
        </Card>
      ) : null}

      <CountChips
        label={t('reconciliation.review.status')}
        current={current}
        chips={['', ...BANK_LINE_STATUSES].map((status) => ({
          key: status,
          label: status ? t(`reconciliation.line_statuses.${status}`) : t('reconciliation.review.all'),
          count: status ? s.counts[status as keyof typeof s.counts] : s.line_count,
          to: filterLink(status),
        }))}
      />

      <Card flush>
        {lines.items.length ? (
          <ul className="divide-y divide-slate-200" aria-label={t('reconciliation.review.credits')}>
            {lines.items.map((line) => (
              <CreditRow key={line.line_no} line={line} canChange={canChange} busy={busy} answer={answer} />
            ))}
          </ul>
        ) : (
          <p className="px-4 py-6 text-center text-sm text-slate-600">{t('reconciliation.review.empty')}</p>
        )}
        <Pagination meta={lines.meta} />
      </Card>

      {/* Under the matches it confirms: a person reads them, then records them. */}
      {canChange ? (
        <Card className="flex flex-wrap items-center justify-between gap-4">
          <p className="text-sm text-slate-700">
            {t('reconciliation.review.confirm_question', { count: toRecord })}
          </p>
          <AppForm method="post">
            <Button type="submit" name="intent" value="confirm" disabled={busy || toRecord === 0}>
              {t('reconciliation.review.confirm')}
            </Button>
          </AppForm>
        </Card>
      ) : null}
    </div>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;

function CreditRow({
  line,
  canChange,
  busy,
  answer,
}: {
  line: LineView;
  canChange: boolean;
  busy: boolean;
  answer: Answer;
}) {
  const { t } = useTranslation();
  const m = useMessage();
  const left = line.amount_minor - line.allocated_minor;
  const open = canChange && line.status !== 'ignored' && line.status !== 'recorded';
  const mine =
    answer?.intent === 'allocate' && answer.submission?.initialValue?.line === String(line.line_no);
  const errors = mine ? (answer?.submission?.error ?? {}) : {};
  const id = `line-${line.line_no}`;
  return (
    <li
      className="grid gap-3 px-4 py-4 md:grid-cols-[10rem_1fr_minmax(16rem,22rem)]"
      aria-labelledby={`${id}-amount`}
    >
      <div>
        <p id={`${id}-amount`} className="text-base font-semibold text-slate-900">
          {money(line.amount_minor, line.currency)}
        </p>
        <p className="text-xs text-slate-500">{formatDate(line.booking_date)}</p>
        <div className="mt-1">
          <LineStatusBadge status={line.status} />
        </div>
      </div>
      <div className="min-w-0 text-sm">
        {line.counterparty ? <p className="font-medium text-slate-900">{line.counterparty}</p> : null}
        <p className="break-words text-slate-700">{line.text || '—'}</p>
        {line.reference ? <p className="break-words text-xs text-slate-500">{line.reference}</p> : null}
        {line.problem ? <p className="mt-1 text-xs font-medium text-amber-800">{m(line.problem)}</p> : null}
      </div>
      <div className="space-y-2 text-sm">
        {line.allocations.length ? (
          <ul className="space-y-1" aria-label={t('reconciliation.review.invoices')}>
            {line.allocations.map((a) => (
              <li
                key={a.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-1.5"
              >
                <span className="min-w-0">
                  <InvoiceLink
                    number={a.invoice.number}
                    clientId={a.invoice.client_id}
                    invoiceId={a.invoice.id}
                    variant="inline"
                  />{' '}
                  <span className="text-slate-600">{a.invoice.client_name}</span>
                  <span className="block text-xs text-slate-500">
                    {money(a.amount_minor, a.invoice.currency)} · {t(`reconciliation.sources.${a.source}`)}
                  </span>
                </span>
                {open ? (
                  <AppForm method="post" preventScrollReset>
                    <input type="hidden" name="allocation" value={a.id} />
                    <Button
                      type="submit"
                      name="intent"
                      value="remove"
                      variant="secondary"
                      disabled={busy}
                      aria-label={`${t('reconciliation.review.remove')} ${a.invoice.number}`}
                    >
                      {t('reconciliation.review.remove')}
                    </Button>
                  </AppForm>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {open && left > 0 ? (
          <AppForm
            method="post"
            preventScrollReset
            className="space-y-2"
            key={`${line.line_no}-${line.allocated_minor}`}
          >
            <input type="hidden" name="line" value={line.line_no} />
            <p className="text-xs text-slate-600">
              {t('reconciliation.review.left', { amount: money(left, line.currency) })}
            </p>
            <div className="grid grid-cols-[1fr_7rem] gap-2">
              <div>
                <label className="sr-only" htmlFor={`${id}-invoice`}>
                  {t('reconciliation.review.invoice')}
                </label>
                <Input
                  id={`${id}-invoice`}
                  name="invoice"
                  placeholder={t('reconciliation.review.invoice')}
                  autoComplete="off"
                  aria-invalid={errors.invoice?.length ? true : undefined}
                />
              </div>
              <div>
                <label className="sr-only" htmlFor={`${id}-amount-input`}>
                  {t('reconciliation.review.amount_to_allocate')}
                </label>
                <Input
                  id={`${id}-amount-input`}
                  name="amount"
                  inputMode="decimal"
                  defaultValue={(left / 100).toFixed(2)}
                  aria-invalid={errors.amount?.length || errors.amount_minor?.length ? true : undefined}
                />
              </div>
            </div>
            <ErrorList
              errors={[...(errors.invoice ?? []), ...(errors.amount ?? []), ...(errors.amount_minor ?? [])]}
            />
            <Button type="submit" name="intent" value="allocate" disabled={busy}>
              {t('reconciliation.review.allocate')}
            </Button>
          </AppForm>
        ) : null}
        {canChange &&
        line.status !== 'recorded' &&
        line.problem !== 'reconciliation.problems.already_recorded' ? (
          <AppForm method="post" preventScrollReset>
            <input type="hidden" name="line" value={line.line_no} />
            <input type="hidden" name="ignored" value={line.status === 'ignored' ? 'false' : 'true'} />
            <Button type="submit" name="intent" value="ignore" variant="secondary" disabled={busy}>
              {line.status === 'ignored'
                ? t('reconciliation.review.restore')
                : t('reconciliation.review.ignore')}
            </Button>
          </AppForm>
        ) : null}
      </div>
    </li>
  );
}
