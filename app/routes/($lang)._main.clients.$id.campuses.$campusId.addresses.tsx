/** A campus's addresses tab: the billing and the mailing address. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { updateCampusAddresses } from '@server/domain/campuses/edit';
import { countryOptions } from '@server/domain/contacts/service';
import { addressFormValue } from '@server/domain/contacts/values';
import { campusAddressesSchema, constraintsOf, idsSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions.server';
import { useSchemaForm } from '~/lib/schema-form';
import { AppForm, FormErrors } from '~/components/fields';
import { useAnswerError } from '~/components/ui/snackbar';
import { AddressFieldset, fieldsetOf } from '~/components/contacts/contacts-editor';
import { AddressView } from '~/components/contacts/contacts-view';
import { SaveButton, useCampus } from '~/components/campuses/campus-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    async load({ ctx }) {
      return json({
        countries: can(ctx.actor, 'update_campus') ? await countryOptions(ctx.db) : null,
        constraint: constraintsOf(campusAddressesSchema),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idsSchema('id', 'campusId'),
    schema: campusAddressesSchema,
    permission: 'update_campus',
    async handle(input, { ctx, params, redirect }) {
      await updateCampusAddresses(ctx, params.campusId, input);
      return redirect(`/clients/${params.id}/campuses/${params.campusId}/addresses`, 'campuses.saved');
    },
  })(args);

export default function CampusAddressesTab() {
  const { t } = useTranslation();
  const { campus, can: allowed } = useCampus();
  const { countries, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const [form, fields] = useSchemaForm({
    id: `campus-addresses-${campus.updated_at}`,
    schema: () => import('@server/domain/campuses/schema').then((m) => m.campusAddressesSchema),
    lastResult: data?.submission,
    defaultValue: {
      billing_address: addressFormValue(campus.billing_address),
      mailing_address: addressFormValue(campus.mailing_address),
    } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!allowed.update || !countries)
    return (
      <div className="grid gap-6 lg:grid-cols-2">
        <AddressView address={campus.billing_address} title={t('contacts.address.billing')} />
        <AddressView address={campus.mailing_address} title={t('contacts.address.mailing')} />
      </div>
    );
  return (
    <AppForm method="post" {...getFormProps(form)} key={form.id} className="space-y-6">
      <FormErrors errors={form.errors} />
      <div className="grid gap-6 lg:grid-cols-2">
        <AddressFieldset field={fieldsetOf(fields.billing_address)} kind="billing" countries={countries} />
        <AddressFieldset field={fieldsetOf(fields.mailing_address)} kind="mailing" countries={countries} />
      </div>
      <SaveButton />
    </AppForm>
  );
}
