/** A client's addresses tab: the billing and the mailing address. */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { updateClient } from '@server/domain/clients/service';
import { countryOptions } from '@server/domain/contacts/service';
import { addressFormValue } from '@server/domain/contacts/values';
import { addressesSchema, constraintsOf, idSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { AppForm } from '~/components/fields';
import { useAnswerError } from '~/components/ui/snackbar';
import { AddressFieldset, fieldsetOf } from '~/components/contacts/contacts-editor';
import { AddressView } from '~/components/contacts/contacts-view';
import { EditCard, saveErrors, useClient } from '~/components/clients/client-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    async load({ ctx }) {
      return json({
        constraint: constraintsOf(addressesSchema),
        countries: can(ctx.actor, 'update_client') ? await countryOptions(ctx.db) : [],
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: addressesSchema,
    permission: 'update_client',
    async handle(input, { ctx, params, redirect }) {
      // An address left empty is removed (null), not kept.
      await updateClient(ctx, params.id, {
        billing_address: input.billing_address ?? null,
        mailing_address: input.mailing_address ?? null,
      } as never);
      return redirect(`/clients/${params.id}/addresses`, 'clients.saved');
    },
  })(args);

export default function ClientAddressesTab() {
  const { t } = useTranslation();
  const { client, canUpdate } = useClient();
  const { countries, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/contacts/schema').then((m) => m.addressesSchema),
    id: `client-addresses-${client.updated_at}`,
    lastResult: data?.submission,
    defaultValue: {
      billing_address: addressFormValue(client.billing_address),
      mailing_address: addressFormValue(client.mailing_address),
    } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate)
    return (
      <div className="grid gap-4 md:grid-cols-2">
        <AddressView address={client.billing_address} title={t('contacts.address.billing')} />
        <AddressView address={client.mailing_address} title={t('contacts.address.mailing')} />
      </div>
    );
  return (
    <AppForm method="post" {...getFormProps(form)} key={form.id}>
      <EditCard
        intent="addresses"
        title={t('clients.sections.addresses')}
        busy={busy}
        errors={saveErrors(data, form.errors)}
      >
        <div className="grid gap-4 lg:grid-cols-2">
          <AddressFieldset field={fieldsetOf(fields.billing_address)} kind="billing" countries={countries} />
          <AddressFieldset field={fieldsetOf(fields.mailing_address)} kind="mailing" countries={countries} />
        </div>
      </EditCard>
    </AppForm>
  );
}
