/**
 * /insureds/new/import-success?batch={id}: the imported order is in the cart; how many applicants went
 * in, with the way to the cart and to order more.
 */
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { importBatchStep, importResult } from '~/lib/imports.server';
import { pageLoader } from '~/lib/loaders.server';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ImportSteps } from '~/components/imports/import-bits';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { ctx, ib } = await importBatchStep(kit, 'success');
      const result = await importResult(ctx, ib.batch.public_id);
      return { result, title: pageTitle(context, request, 'imports.success.title') };
    },
  })(args);

export default function ImportSuccess() {
  const { t, i18n } = useTranslation();
  const { result } = useLoaderData<typeof loader>();
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-3xl">
      <ImportSteps current="fees" />
      <PageHeader title={t('imports.success.title')} />
      <Card>
        <div className="flex items-start gap-4">
          <span
            aria-hidden="true"
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-green-100 text-xl text-green-700"
          >
            ✓
          </span>
          <div>
            <p className="text-base font-medium text-slate-900" data-testid="import-success">
              {t('imports.success.text', { count: result.count })}
            </p>
            <div className="mt-5 flex flex-wrap gap-3">
              <ButtonLink to={to('/cart')}>{t('imports.success.to_cart')}</ButtonLink>
              <ButtonLink to={to('/insureds/order')} variant="secondary">
                {t('imports.success.order_more')}
              </ButtonLink>
            </div>
          </div>
        </div>
      </Card>
    </div>
  );
}
