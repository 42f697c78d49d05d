/**
 * /insureds/new/review?batch={id}: the whole order before it goes into the cart: campus, product,
 * applicants with their links, fees and any error; whether the insureds get the welcome email when
 * their policies are issued (stored on the batch); "Add to cart" puts the batch in the cart (refused
 * while an applicant has errors).
 */
import { type LoaderFunctionArgs, type MetaFunction, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ORDER_PERMISSION, confirmBatch, setWelcomeEmail } from '@server/domain/enrollments/service';
import { orderReviewSchema, pageQuerySchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { batchStepPage, orderStep } from '~/lib/enrollments.server';
import { pageLoader } from '~/lib/loaders.server';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Pagination } from '~/components/ui/data-table';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ApplicantsTable } from '~/components/enrollments/applicants-table';
import { OrderSteps } from '~/components/enrollments/order-bits';
import { formatMinor } from '~/lib/money';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    query: pageQuerySchema,
    async load(kit) {
      const page = await batchStepPage(kit, 'review');
      return { ...page, title: pageTitle(kit.context, kit.request, 'order.review.title') };
    },
  })(args);

/** The welcome-email choice, then "Add to cart": the batch goes into the cart. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: orderReviewSchema,
    permission: ORDER_PERMISSION,
    async handle(input, kit) {
      const { redirect } = kit;
      const { ctx, batch } = await orderStep(kit, 'review');
      await setWelcomeEmail(ctx, batch.id, input.send_welcome_email === 'on');
      await confirmBatch(ctx, batch.id);
      return redirect('/cart', 'cart.added');
    },
  })(args);

export default function Review() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const { batch, list, overview } = data;
  const lp = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={t('order.review.title')}
        description={`${batch.campus.name} · ${batch.product.name}`}
      />
      <OrderSteps current="review" batchId={batch.id} />
      <p className="text-sm text-slate-600">{t('order.review.description')}</p>
      <SummaryTiles
        tiles={[
          { label: t('order.campus'), value: batch.campus.name },
          { label: t('order.product'), value: `${batch.product.name} (${batch.product.code})` },
          { label: t('order.review.applicants'), value: overview.total },
          {
            label: t('order.review.total'),
            value: formatMinor(overview.fees.total_minor, overview.fees.currency),
          },
        ]}
      />
      {batch.status === 'open' ? <Alert tone="info">{t('order.review.in_cart')}</Alert> : null}
      {overview.with_errors ? (
        <Alert>
          {t('enrollments.errors.batch_has_errors', { count: overview.with_errors })}{' '}
          <Link className="font-semibold underline" to={lp(`/insureds/new/add?batch=${batch.id}`)}>
            {t('order.review.fix')}
          </Link>
        </Alert>
      ) : null}
      <Card flush className="overflow-hidden">
        <div className="border-b border-slate-200 px-6 py-4">
          <h2 className="text-base font-semibold">
            {t('order.review.applicants')} ({overview.total})
          </h2>
        </div>
        <ApplicantsTable rows={list.items} caption={t('order.review.applicants')} />
        {list.meta.last_page > 1 ? <Pagination meta={list.meta} /> : null}
      </Card>
      <Card>
        <AppForm method="post" className="space-y-5">
          <FormErrors errors={result?.error ? [result.error] : null} />
          <div className="flex items-start gap-3">
            <input
              id="send-welcome-email"
              type="checkbox"
              name="send_welcome_email"
              defaultChecked={batch.send_welcome_email}
              className="mt-0.5 h-4 w-4 rounded border-slate-300 text-primary-700"
            />
            <div>
              <label htmlFor="send-welcome-email" className="text-sm font-medium text-slate-800">
                {t('order.review.welcome')}
              </label>
              <p className="text-xs text-slate-500">{t('order.review.welcome_hint')}</p>
            </div>
          </div>
          <div className="flex flex-wrap justify-between gap-3">
            <ButtonLink to={lp(`/insureds/new/group-leader?batch=${batch.id}`)} variant="secondary">
              {t('order.review.back')}
            </ButtonLink>
            <Button type="submit" disabled={busy || !overview.total}>
              {t('order.review.add_to_cart')}
            </Button>
          </div>
        </AppForm>
      </Card>
    </div>
  );
}
