/** A client's billing tab: payment terms, method and frequency, invoicing, tax and account numbers. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { updateClient } from '@server/domain/clients/service';
import { formAction } from '~/lib/actions.server';
import { pageLoader } from '~/lib/loaders.server';
import { clientBillingSchema, constraintsOf } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { AppForm } from '~/components/fields';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { Facts } from '~/components/ui/facts';
import { ClientBillingFields, clientFormValue } from '~/components/clients/client-form';
import { EditCard, saveErrors, useClient } from '~/components/clients/client-page';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    load: () => json({ constraint: constraintsOf(clientBillingSchema) }),
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: clientBillingSchema,
    permission: 'update_client',
    async handle(input, { ctx, params, redirect }) {
      await updateClient(ctx, params.id ?? '', input as never);
      return redirect(`/clients/${params.id}/billing`, 'clients.saved');
    },
  })(args);

export default function ClientBillingTab() {
  const { t } = useTranslation();
  const { client, canUpdate } = useClient();
  const { constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: `client-billing-${client.updated_at}`,
    schema: () => import('@server/domain/clients/schema').then((m) => m.clientBillingSchema),
    lastResult: data?.submission,
    defaultValue: clientFormValue(client),
    constraint,
    shouldValidate: 'onBlur',
  });
  if (!canUpdate)
    return (
      <Card>
        <Facts
          items={[
            {
              label: t('clients.fields.payment_terms'),
              value: t(`clients.payment_terms.${client.payment_terms}`),
            },
            {
              label: t('clients.fields.payment_method'),
              value: t(`clients.payment_methods.${client.payment_method}`),
            },
            {
              label: t('clients.fields.payment_frequency'),
              value: client.payment_frequency
                ? t(`clients.payment_frequencies.${client.payment_frequency}`)
                : t('clients.fields.no_frequency'),
            },
            {
              label: t('clients.fields.invoice_rule'),
              value: t(`clients.invoice_rules.${client.invoice_rule}`),
            },
            {
              label: t('clients.fields.billing_enabled'),
              value: client.billing_enabled
                ? t('clients.fields.billing_enabled_yes')
                : t('clients.fields.billing_enabled_no'),
            },
            { label: t('clients.fields.tax_number'), value: client.tax_number ?? '—' },
            { label: t('clients.fields.account_number_ap'), value: client.account_number_ap ?? '—' },
            { label: t('clients.fields.account_number_ar'), value: client.account_number_ar ?? '—' },
          ]}
        />
      </Card>
    );
  return (
    <AppForm method="post" {...getFormProps(form)} key={form.id}>
      <EditCard
        intent="billing"
        title={t('clients.sections.billing')}
        busy={busy}
        errors={saveErrors(data, form.errors)}
      >
        <ClientBillingFields fields={fields as never} />
      </EditCard>
    </AppForm>
  );
}
