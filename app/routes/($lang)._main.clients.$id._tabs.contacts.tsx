/** A client's contacts tab: owner, billing, secondary and other contacts. */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can } from '@server/domain/access/actor';
import { updateClient } from '@server/domain/clients/service';
import { contactsSchema } from '@server/domain/contacts/schema';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { requirePermissions } from '~/lib/guards.server';
import { formAction } from '~/lib/actions.server';
import { AppForm } from '~/components/fields';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { ContactsEditor, type ObjectField } from '~/components/contacts/contacts-editor';
import { ContactsView } from '~/components/contacts/contacts-view';
import { EditCard, saveErrors, useClient } from '~/components/clients/client-page';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  return json({ countries: can(ctx.actor, 'update_client') ? await countryOptions(ctx.db) : [] });
}

const contactsForm = z.object({ contacts: contactsSchema });

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: contactsForm,
    permission: 'update_client',
    async handle(input, { ctx, params, redirect }) {
      await updateClient(ctx, params.id ?? '', input as never);
      return redirect(`/clients/${params.id}/contacts`, 'clients.saved');
    },
  })(args);

export default function ClientContactsTab() {
  const { t } = useTranslation();
  const { client, canUpdate } = useClient();
  const { countries } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: `client-contacts-${client.updated_at}`,
    lastResult: data?.submission,
    defaultValue: { contacts: contactsFormValue(client.contacts) },
    constraint: getZodConstraint(contactsForm),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactsForm }),
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
        <ContactsEditor form={form} field={fields.contacts as unknown as ObjectField} countries={countries} />
      </EditCard>
    </AppForm>
  );
}
