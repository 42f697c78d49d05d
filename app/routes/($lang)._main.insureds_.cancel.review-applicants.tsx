/**
 * /insureds/cancel/review-applicants?import={id}: every row of the sheet with the policy it names, 50 a
 * page, with "only show errors". Rows are deleted (the chosen ones, or all with errors); when no row has
 * errors left the user gives the reason and proceeds: the policies are quoted for cancellation (their
 * dependants with them) and the confirmation page shows the counts and the credit before anything
 * changes.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/values';
import {
  cancelImportIdSchema,
  cancelReviewQuerySchema,
  deleteCancelRowsFormSchema,
  proceedCancelFormSchema,
} from '~/lib/schemas.server';
import { intentAction, unreachable } from '~/lib/actions';
import { OnlyErrorsToggle } from '~/components/imports/import-bits';
import { msg } from '@server/domain/messages';
import {
  cancelReviewPage,
  cancellationStep,
  deleteCancelRows,
  proceedCancellation,
  type CancelReviewRow,
} from '~/lib/cancellations.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm, FieldShell, FormErrors, Input } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { CancelSteps } from '~/components/cancellations/cancel-steps';
import { formatDate } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    query: cancelReviewQuerySchema,
    async load(kit) {
      const { request, context, query } = kit;
      const { ctx, view } = await cancellationStep(kit, 'review');
      const page = await cancelReviewPage(ctx, view.id, query);
      return {
        import: { id: view.id, file_name: view.file_name, reason: view.reason, quoted: !!view.amendment_id },
        rows: page.rows,
        counts: page.counts,
        checksLastName: Object.values(view.mapping).includes('last_name'),
        errorsOnly: query.errors_only,
        title: pageTitle(context, request, 'cancellations.review.title'),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      delete: { schema: deleteCancelRowsFormSchema, permission: CANCEL_PERMISSION },
      delete_errored: { schema: cancelImportIdSchema, permission: CANCEL_PERMISSION },
      proceed: { schema: proceedCancelFormSchema, permission: CANCEL_PERMISSION },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'delete': {
          const { deleted } = await deleteCancelRows(ctx, input.import, { rows: input.rows, errored: false });
          return { toast: msg('cancellations.review.deleted', { count: deleted }) };
        }
        case 'delete_errored': {
          const { deleted } = await deleteCancelRows(ctx, input.import, { rows: [], errored: true });
          return { toast: msg('cancellations.review.deleted', { count: deleted }) };
        }
        case 'proceed': {
          await proceedCancellation(ctx, input.import, { reason: input.reason });
          return redirect(`/insureds/cancel/confirm-cancellation?import=${input.import}`);
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function CancelReview() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const imp = data.import;
  const proceedErrors = answer?.intent === 'proceed' ? (answer.submission?.error ?? {}) : {};
  const deleteErrors = answer?.intent === 'delete' ? (answer.submission?.error ?? {}) : {};
  const columns: Column<CancelReviewRow>[] = [
    {
      key: 'select',
      card: 'status' as const,
      header: <span className="sr-only">{t('cancellations.review.select')}</span>,
      render: (r) => (
        <input
          type="checkbox"
          name="rows"
          value={r.row}
          form="delete-form"
          aria-label={t('cancellations.review.select_row', { row: r.row })}
          className="h-4 w-4 rounded border-slate-300 text-primary-700"
        />
      ),
    },
    { key: 'row', card: 'figure', header: t('cancellations.review.row'), render: (r) => r.row },
    {
      key: 'policy_id',
      card: 'figure',
      header: t('cancellations.fields.policy_id'),
      render: (r) => <span className="font-mono">{r.policy_number ?? ''}</span>,
    },
    ...(data.checksLastName
      ? [
          {
            key: 'last_name',
            card: 'hidden' as const,
            header: t('cancellations.fields.last_name'),
            render: (r: CancelReviewRow) => r.sheet_last_name ?? '',
          },
        ]
      : []),
    {
      key: 'insured',
      card: 'title',
      header: t('cancellations.review.insured'),
      render: (r) => (r.policy ? `${r.policy.first_name} ${r.policy.last_name}` : ''),
    },
    {
      key: 'trip',
      card: 'figure',
      header: t('cancellations.review.trip'),
      className: 'whitespace-nowrap',
      render: (r) =>
        r.policy ? `${formatDate(r.policy.start_date)} – ${formatDate(r.policy.end_date)}` : '',
    },
    {
      key: 'errors',
      card: 'wide',
      header: t('cancellations.review.errors'),
      render: (r) =>
        r.errors.length ? (
          <ul className="space-y-0.5 text-red-700" data-testid="row-errors">
            {r.errors.map((e, i) => (
              <li key={i}>{m(e.message)}</li>
            ))}
          </ul>
        ) : (
          <span className="text-green-700">{t('cancellations.review.ok')}</span>
        ),
    },
  ];
  return (
    <div className="mx-auto max-w-6xl">
      <CancelSteps current="review" id={imp.id} />
      <PageHeader
        title={t('cancellations.review.title')}
        description={t('cancellations.review.description', { file: imp.file_name })}
        actions={
          <ButtonLink to={to(`/insureds/cancel/match-columns?import=${imp.id}`)} variant="secondary">
            {t('cancellations.review.rematch')}
          </ButtonLink>
        }
      />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium text-slate-900" data-testid="review-summary">
          {t('cancellations.review.summary', { total: data.counts.total, errors: data.counts.with_errors })}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <OnlyErrorsToggle
            keep={{ import: imp.id }}
            checked={data.errorsOnly}
            label={t('cancellations.review.only_errors')}
            applyLabel={t('cancellations.review.apply')}
          />
          <AppForm method="post" id="delete-form" preventScrollReset className="flex flex-wrap gap-2">
            <input type="hidden" name="import" value={imp.id} />
            <Button
              type="submit"
              name="intent"
              value="delete"
              variant="secondary"
              disabled={busy}
              className="!py-1.5"
            >
              {t('cancellations.review.delete_selected')}
            </Button>
            {data.counts.with_errors > 0 ? (
              <Button
                type="submit"
                name="intent"
                value="delete_errored"
                variant="danger"
                disabled={busy}
                className="!py-1.5"
              >
                {t('cancellations.review.delete_errored', { count: data.counts.with_errors })}
              </Button>
            ) : null}
          </AppForm>
        </div>
      </div>
      <div className="mb-4 space-y-2">
        {imp.quoted ? (
          <Alert tone="info">
            {t('cancellations.review.quoted')}{' '}
            <Link
              to={to(`/insureds/cancel/confirm-cancellation?import=${imp.id}`)}
              className="font-semibold underline"
            >
              {t('cancellations.review.to_confirm')}
            </Link>
          </Alert>
        ) : null}
        <FormErrors errors={deleteErrors.rows ?? deleteErrors['']} />
        {answer && !answer.ok && answer.error && answer.intent !== 'proceed' ? (
          <Alert>{m(answer.error)}</Alert>
        ) : null}
      </div>
      {data.counts.total === 0 ? (
        <Alert tone="info">{t('cancellations.review.empty')}</Alert>
      ) : data.rows.items.length === 0 && data.errorsOnly ? (
        <Alert tone="success">{t('cancellations.review.no_errors')}</Alert>
      ) : (
        <DataTable
          rows={data.rows.items}
          columns={columns}
          rowId={(r) => String(r.row)}
          meta={data.rows.meta}
          caption={t('cancellations.review.title')}
        />
      )}
      <Card className="mt-6">
        <h2 className="text-base font-semibold text-slate-900">{t('cancellations.review.proceed_title')}</h2>
        {data.counts.with_errors > 0 || data.counts.total === 0 ? (
          <p className="mt-2 text-sm text-amber-800">
            {data.counts.total === 0
              ? t('cancellations.review.empty')
              : t('cancellations.review.blocked', { count: data.counts.with_errors })}
          </p>
        ) : (
          <AppForm method="post" className="mt-4 space-y-4">
            <input type="hidden" name="import" value={imp.id} />
            <FormErrors errors={proceedErrors['']} />
            {answer?.intent === 'proceed' && answer.error ? <Alert>{m(answer.error)}</Alert> : null}
            <FieldShell
              id="cancel-reason"
              label={t('cancellations.review.reason')}
              hint={t('cancellations.review.reason_hint', { count: data.counts.total })}
              errors={proceedErrors.reason}
              errorId="cancel-reason-errors"
            >
              <Input
                id="cancel-reason"
                name="reason"
                required
                maxLength={255}
                defaultValue={imp.reason ?? ''}
                aria-invalid={proceedErrors.reason?.length ? true : undefined}
                aria-describedby="cancel-reason-errors"
              />
            </FieldShell>
            <Button type="submit" name="intent" value="proceed" disabled={busy}>
              {t('cancellations.review.proceed', { count: data.counts.total })}
            </Button>
          </AppForm>
        )}
      </Card>
    </div>
  );
}
