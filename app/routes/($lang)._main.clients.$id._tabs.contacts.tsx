/** A client's contacts tab: owner, billing, secondary and other contacts. */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { updateClient } from '@server/domain/clients/service';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { constraintsOf, contactsFormSchema, idSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions.server';
import { useSchemaForm } from '~/lib/schema-form';
import { AppForm } from '~/components/fields';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { ContactsEditor, fieldsetOf } from '~/components/contacts/contacts-editor';
import { ContactsView } from '~/components/contacts/contacts-view';
import { EditCard, saveErrors, useClient } from '~/components/clients/client-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    async load({ ctx }) {
      return json({
        countries: can(ctx.actor, 'update_client') ? await countryOptions(ctx.db) : [],
        constraint: constraintsOf(contactsFormSchema),
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: contactsFormSchema,
    permission: 'update_client',
    async handle(input, { ctx, params, redirect }) {
      await updateClient(ctx, params.id, input as never);
      return redirect(`/clients/${params.id}/contacts`, 'clients.saved');
    },
  })(args);

export default function ClientContactsTab() {
  const { t } = useTranslation();
  const { client, canUpdate } = useClient();
  const { countries, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: `client-contacts-${client.updated_at}`,
    schema: () => import('@server/domain/contacts/schema').then((m) => m.contactsFormSchema),
    lastResult: data?.submission,
    defaultValue: { contacts: contactsFormValue(client.contacts) } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate)
    return (
      <Card>
        <ContactsView contacts={client.contacts} />
      </Card>
    );
  return (
    <AppForm method="post" {...getFormProps(form)} key={form.id}>
      <EditCard
        intent="contacts"
        title={t('clients.sections.contacts')}
        busy={busy}
        errors={saveErrors(data, form.errors)}
      >
        <ContactsEditor form={form} field={fieldsetOf(fields.contacts)} countries={countries} />
      </EditCard>
    </AppForm>
  );
}
