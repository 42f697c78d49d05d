/**
 * A client's "invoices" tab: the invoice list filtered to the client (the same list as /invoices), with
 * the link to generate invoices for the period (periodic invoicing's page) for who may create invoices.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData, useParams } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { requireClientTab } from '~/lib/clients.server';
import { INVOICE_ACCESS, can, findClient, invoiceListData } from '~/lib/invoices.server';
import { localePath } from '~/i18n/config';
import { ButtonLink } from '~/components/ui/button';
import { InvoiceList } from '~/components/invoices/invoice-list';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'invoices');
      const id = params.id;
      // The client must be the actor's to see (NotFound otherwise), then the list is filtered to it.
      await findClient(ctx, id, INVOICE_ACCESS);
      const data = await invoiceListData(ctx, request, { client_id: id });
      return json({ ...data, generate: can(ctx.actor, 'create_invoice') });
    },
  })(args);

export default function ClientInvoices() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { id } = useParams();
  return (
    <div className="space-y-4">
      {data.generate ? (
        <div className="flex justify-end">
          <ButtonLink to={localePath(i18n.language, `/clients/${id}/generate-invoices`)} variant="secondary">
            {t('invoices.actions.generate')}
          </ButtonLink>
        </div>
      ) : null}
      <InvoiceList
        list={data.list}
        summary={data.summary}
        currencies={data.options.currencies}
        staff={data.staff}
        scope="client"
        hrefOf={(r) => `/clients/${r.client.id}/invoices/${r.id}`}
        downloadAction={localePath(i18n.language, '/invoices/download')}
      />
    </div>
  );
}
