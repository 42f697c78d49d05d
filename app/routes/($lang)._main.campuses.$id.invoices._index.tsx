/** /campuses/{id}/invoices (spec 000 s.2): a campus's invoices, the same list as /invoices. */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData, useParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { INVOICE_ACCESS, can, findCampus, invoiceListData } from '~/lib/invoices.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { PageHeader } from '~/components/ui/card';
import { ButtonLink } from '~/components/ui/button';
import { InvoiceList } from '~/components/invoices/invoice-list';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const { campus, client } = await findCampus(ctx, params.id, INVOICE_ACCESS);
      const data = await invoiceListData(ctx, request, { campus_id: campus.public_id });
      return json({
        ...data,
        campus: { id: campus.public_id, name: campus.name, client: client.name },
        generate: can(ctx.actor, 'create_invoice'),
        title: pageTitle(context, request, 'invoices.title'),
      });
    },
  })(args);

export default function CampusInvoices() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { id } = useParams();
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={`${t('invoices.title')} · ${data.campus.name}`}
        description={data.campus.client}
        actions={
          data.generate ? (
            <ButtonLink
              to={localePath(i18n.language, `/campuses/${id}/generate-invoices`)}
              variant="secondary"
            >
              {t('invoices.actions.generate')}
            </ButtonLink>
          ) : undefined
        }
      />
      <InvoiceList
        list={data.list}
        summary={data.summary}
        currencies={data.options.currencies}
        staff={data.staff}
        scope="campus"
        hrefOf={(r) => `/campuses/${id}/invoices/${r.id}`}
        downloadAction={localePath(i18n.language, '/invoices/download')}
      />
    </div>
  );
}
