/**
 * /insureds/new/import-fees?batch={id} (or ?import={id}): the fee of each imported applicant and the
 * total, in the contract's currency; "Add to cart" puts the order into the cart (refused while any
 * applicant has an error) and goes to the success page.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { importBatchRefSchema, pageQuerySchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { addImportToCart, batchCounts, feesStep, importBatchStep } from '~/lib/imports.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { ImportSteps } from '~/components/imports/import-bits';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    query: pageQuerySchema,
    async load(kit) {
      const { request, context, query } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'fees');
      const fees = await feesStep(ctx, ib, query.page);
      const counts = await batchCounts(ctx, ib.batch.id);
      return {
        batch: { id: ib.batch.public_id },
        import: ib.imp ? { id: ib.imp.public_id } : null,
        ...fees,
        counts,
        title: pageTitle(context, request, 'imports.fees.title'),
      };
    },
  })(args);

/** "Add to cart": refused while any applicant has an error; then the result page. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: importBatchRefSchema,
    permission: ORDER_PERMISSION,
    async handle(_input, kit) {
      const { formData, redirect } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'fees', formData);
      const { batch } = await addImportToCart(ctx, ib);
      return redirect(`/insureds/new/import-success?batch=${batch.public_id}`);
    },
  })(args);

export default function ImportFees() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  // Ireland's stamp duty (and any country with the flag set) has a column of its own when charged.
  const stamp = data.totals.stamp_duty_minor > 0;
  const to = (path: string) => localePath(i18n.language, path);
  const ref = data.import ? `import=${data.import.id}` : `batch=${data.batch.id}`;
  const links = {
    review: `/insureds/review-applicants?${ref}`,
    link: `/insureds/new/link-dependents?batch=${data.batch.id}`,
    leaders: `/insureds/new/group-leader?batch=${data.batch.id}`,
  };
  const back = data.counts.leaders > 0 ? links.leaders : data.counts.family > 0 ? links.link : links.review;
  const refused = answer?.submission?.error ?? {};
  const errors = [...(refused[''] ?? []), ...(refused.batch ?? [])];
  return (
    <div className="mx-auto max-w-5xl">
      <ImportSteps current="fees" links={links} />
      <PageHeader title={t('imports.fees.title')} description={t('imports.fees.description')} />
      <div className="mb-4 space-y-3">
        <FormErrors errors={errors} />
        {data.counts.any_errors > 0 ? (
          <Alert>
            {t('imports.fees.blocked', { count: data.counts.any_errors })}{' '}
            <a href={to(links.review)} className="font-semibold underline">
              {t('imports.review.title')}
            </a>
          </Alert>
        ) : null}
      </div>
      <div className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-3">
                {t('imports.review.row')}
              </th>
              <th scope="col" className="px-4 py-3">
                {t('imports.fees.applicant')}
              </th>
              <th scope="col" className="px-4 py-3">
                {t('imports.fees.trip')}
              </th>
              <th scope="col" className="px-4 py-3 text-right">
                {t('imports.fees.premium')}
              </th>
              <th scope="col" className="px-4 py-3 text-right">
                {t('imports.fees.tax')}
              </th>
              {stamp ? (
                <th scope="col" className="px-4 py-3 text-right">
                  {t('taxes.lines.stamp_duty')}
                </th>
              ) : null}
              <th scope="col" className="px-4 py-3 text-right">
                {t('imports.fees.total')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.rows.items.map((r) => (
              <tr key={r.id} data-row={r.position}>
                <td className="px-4 py-2.5 text-slate-500">{r.position}</td>
                <td className="px-4 py-2.5">
                  <span className="font-medium text-slate-900">
                    {[r.values.first_name, r.values.last_name].filter(Boolean).join(' ')}
                  </span>
                  <span className="ml-2 text-xs text-slate-500">{t(`imports.types.${r.type}`)}</span>
                </td>
                <td className="whitespace-nowrap px-4 py-2.5 text-slate-700">
                  {britishDate(r.values.start_date)} – {britishDate(r.values.end_date)}
                </td>
                <td className="px-4 py-2.5 text-right tabular-nums">
                  {formatMinor(r.fee_minor, data.currency)}
                </td>
                <td className="px-4 py-2.5 text-right tabular-nums">
                  {formatMinor(r.tax_minor, data.currency)}
                </td>
                {stamp ? (
                  <td className="px-4 py-2.5 text-right tabular-nums">
                    {formatMinor(r.stamp_duty_minor, data.currency)}
                  </td>
                ) : null}
                <td className="px-4 py-2.5 text-right font-medium tabular-nums">
                  {r.total_minor == null ? '—' : formatMinor(r.total_minor, data.currency)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot className="bg-slate-50 text-sm font-semibold text-slate-900">
            <tr>
              <th scope="row" colSpan={3} className="px-4 py-3 text-left">
                {t('imports.fees.totals', { count: data.totals.count })}
              </th>
              <td className="px-4 py-3 text-right tabular-nums">
                {formatMinor(data.totals.premium_minor, data.currency)}
              </td>
              <td className="px-4 py-3 text-right tabular-nums">
                {formatMinor(data.totals.tax_minor, data.currency)}
              </td>
              {stamp ? (
                <td className="px-4 py-3 text-right tabular-nums" data-testid="fees-stamp-duty">
                  {formatMinor(data.totals.stamp_duty_minor, data.currency)}
                </td>
              ) : null}
              <td className="px-4 py-3 text-right tabular-nums" data-testid="fees-total">
                {formatMinor(data.totals.total_minor, data.currency)}
              </td>
            </tr>
          </tfoot>
        </table>
        <Pagination meta={data.rows.meta} />
      </div>
      <Card className="mt-6">
        <AppForm method="post" className="flex flex-wrap items-center justify-between gap-4">
          <input type="hidden" name="batch" value={data.batch.id} />
          <p className="text-base font-semibold text-slate-900">
            {t('imports.fees.totals', { count: data.totals.count })}:{' '}
            {formatMinor(data.totals.total_minor, data.currency)}
          </p>
          <div className="flex flex-wrap gap-3">
            <ButtonLink to={to(back)} variant="secondary">
              {t('common.back')}
            </ButtonLink>
            <Button type="submit" disabled={busy || data.counts.any_errors > 0 || data.totals.count === 0}>
              {t('imports.fees.add_to_cart')}
            </Button>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}
