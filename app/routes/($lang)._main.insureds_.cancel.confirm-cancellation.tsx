/**
 * /insureds/cancel/confirm-cancellation?import={id}: the last step of cancelling by spreadsheet. Before
 * confirming it says what will happen (the policies the sheet names, the dependants cancelled with them,
 * the credit); confirming cancels them all at once and credits the premium on a credit note. Afterwards
 * it states the counts, the credit note(s) and offers the summary (.xlsx). A quote that went out of date
 * (someone changed one of the policies meanwhile) sends the user back to proceed again.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/values';
import { Conflict } from '@server/domain/errors';
import { msg } from '@server/domain/messages';
import { cancelImportIdSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { RefreshWhile } from '~/components/ui/refresh-while';
import { cancellationStep, cancellationOutcome, confirmCancellation } from '~/lib/cancellations.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Facts } from '~/components/ui/facts';
import { ProgressBar } from '~/components/imports/import-bits';
import { CancelSteps } from '~/components/cancellations/cancel-steps';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { formatMinor } from '~/lib/money';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { ctx, view } = await cancellationStep(kit, 'confirm');
      return {
        outcome: await cancellationOutcome(ctx, view.id),
        title: pageTitle(context, request, 'cancellations.confirm.title'),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: cancelImportIdSchema,
    permission: CANCEL_PERMISSION,
    async handle(input, { ctx, redirect }) {
      const result = await confirmCancellation(ctx, input.import);
      if (result.status !== 'confirmed' && result.status !== 'confirming')
        throw new Conflict(msg('cancellations.errors.not_quoted'));
      return redirect(
        `/insureds/cancel/confirm-cancellation?import=${input.import}`,
        result.status === 'confirmed'
          ? msg('cancellations.confirm.done_toast', { count: result.updated })
          : undefined,
      );
    },
  })(args);

export default function ConfirmCancellation() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { outcome } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const running = outcome.status === 'confirming';
  const id = outcome.import.id;
  const currency = outcome.currency ?? 'GBP';
  const credit = outcome.credit_minor + outcome.credit_tax_minor;
  const facts = [
    { label: t('cancellations.confirm.named'), value: String(outcome.named), testId: 'count-named' },
    {
      label: t('cancellations.confirm.dependants'),
      value: String(outcome.dependants),
      testId: 'count-dependants',
    },
    {
      label: t('cancellations.confirm.total'),
      value: String(outcome.named + outcome.dependants),
      testId: 'count-total',
    },
    { label: t('cancellations.confirm.reason'), value: outcome.import.reason ?? '' },
    {
      label: t('cancellations.confirm.credit'),
      value: formatMinor(Math.abs(credit), currency),
      testId: 'credit-total',
    },
  ];
  return (
    <div className="mx-auto max-w-4xl">
      <RefreshWhile running={running} />
      <CancelSteps current="confirm" id={outcome.status === 'confirmed' ? undefined : id} />
      <PageHeader
        title={t('cancellations.confirm.title')}
        description={t('cancellations.confirm.description', { file: outcome.import.file_name })}
      />
      <div className="space-y-6">
        {answer && !answer.ok && answer.error ? <Alert>{m(answer.error)}</Alert> : null}
        {outcome.status === 'confirmed' ? (
          <Alert tone="success">
            <span data-testid="cancel-done">
              {t('cancellations.confirm.done', {
                count: outcome.named + outcome.dependants,
                named: outcome.named,
                dependants: outcome.dependants,
              })}
            </span>
          </Alert>
        ) : outcome.status === 'stale' ? (
          <Alert>{t('cancellations.confirm.stale')}</Alert>
        ) : outcome.status === 'quoted' ? (
          <Alert tone="info">{t('cancellations.confirm.check')}</Alert>
        ) : null}
        <Card>
          <Facts items={facts} />
        </Card>
        {running ? (
          <Card>
            <div aria-live="polite" className="space-y-2">
              <ProgressBar percent={outcome.job?.percent ?? 0} label={t('cancellations.confirm.applying')} />
              <p className="text-sm text-slate-600">{t('cancellations.confirm.applying')}</p>
            </div>
          </Card>
        ) : null}
        {outcome.status === 'confirmed' ? (
          <Card>
            <h2 className="text-base font-semibold text-slate-900">
              {t('cancellations.confirm.credit_notes')}
            </h2>
            {outcome.credit_notes.length ? (
              <ul className="mt-3 divide-y divide-slate-100 text-sm" data-testid="credit-notes">
                {outcome.credit_notes.map((n) => (
                  <li key={n.id} className="flex justify-between gap-4 py-2">
                    <InvoiceLink number={n.number} clientId={n.client_id} invoiceId={n.id} variant="value" />
                    <span className="text-slate-700">{formatMinor(Math.abs(n.total_minor), n.currency)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-2 text-sm text-slate-600">{t('cancellations.confirm.no_credit')}</p>
            )}
            <div className="mt-5 flex flex-wrap gap-3">
              <a
                href={to(`/insureds/cancel/summary.xlsx?import=${id}`)}
                className="inline-flex text-sm font-semibold text-primary-800 underline hover:text-primary-700"
                download
              >
                {t('cancellations.confirm.download')}
              </a>
              <Link to={to('/insureds')} className="text-sm font-semibold text-primary-800 underline">
                {t('cancellations.confirm.to_insureds')}
              </Link>
            </div>
          </Card>
        ) : null}
        {outcome.status === 'quoted' ? (
          <AppForm method="post" className="flex flex-wrap gap-3">
            <input type="hidden" name="import" value={id} />
            <Button type="submit" variant="danger" disabled={busy}>
              {t('cancellations.confirm.submit', { count: outcome.named + outcome.dependants })}
            </Button>
            <ButtonLink to={to(`/insureds/cancel/review-applicants?import=${id}`)} variant="secondary">
              {t('cancellations.confirm.back')}
            </ButtonLink>
          </AppForm>
        ) : null}
        {outcome.status === 'stale' ? (
          <ButtonLink to={to(`/insureds/cancel/review-applicants?import=${id}`)}>
            {t('cancellations.confirm.back')}
          </ButtonLink>
        ) : null}
      </div>
    </div>
  );
}
