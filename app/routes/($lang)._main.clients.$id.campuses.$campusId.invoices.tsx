/** A campus page's "invoices" tab: the invoice list filtered to the campus. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData, useParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireCampusTab } from '~/lib/campuses.server';
import { INVOICE_ACCESS, can, findCampus, invoiceListData } from '~/lib/invoices.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { InvoiceList } from '~/components/invoices/invoice-list';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('campusId'),
    async load({ ctx, request, params }) {
      requireCampusTab(ctx, 'invoices');
      const id = params.campusId;
      await findCampus(ctx, id, INVOICE_ACCESS);
      return json({
        ...(await invoiceListData(ctx, request, { campus_id: id })),
        generate: can(ctx.actor, 'create_invoice'),
      });
    },
  })(args);

export default function CampusInvoicesTab() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { campusId } = useParams();
  return (
    <div className="space-y-4">
      {data.generate ? (
        <div className="flex justify-end">
          <ButtonLink
            to={localePath(i18n.language, `/campuses/${campusId}/generate-invoices`)}
            variant="secondary"
          >
            {t('invoices.actions.generate')}
          </ButtonLink>
        </div>
      ) : null}
      <InvoiceList
        list={data.list}
        summary={data.summary}
        currencies={data.options.currencies}
        staff={data.staff}
        scope="campus"
        hrefOf={(r) => `/campuses/${campusId}/invoices/${r.id}`}
        downloadAction={localePath(i18n.language, '/invoices/download')}
      />
    </div>
  );
}
