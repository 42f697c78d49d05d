/** A campus's contacts tab. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { can } from '@server/domain/access/actor';
import { CAMPUS_CONTACT_TYPES } from '@server/domain/campuses/values';
import { updateCampusContacts } from '@server/domain/campuses/edit';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { campusContactsSchema, constraintsOf, idsSchema } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions.server';
import { AppForm, FormErrors } from '~/components/fields';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { ContactsEditor, fieldsetOf } from '~/components/contacts/contacts-editor';
import { ContactsView } from '~/components/contacts/contacts-view';
import { DefaultSubmit } from '~/components/campuses/campus-bits';
import { SaveButton, useCampus } from '~/components/campuses/campus-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    async load({ ctx }) {
      return json({
        constraint: constraintsOf(campusContactsSchema),
        countries: can(ctx.actor, 'update_campus') ? await countryOptions(ctx.db) : null,
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idsSchema('id', 'campusId'),
    schema: campusContactsSchema,
    permission: 'update_campus',
    async handle(input, { ctx, params, redirect }) {
      await updateCampusContacts(ctx, params.campusId, input);
      return redirect(`/clients/${params.id}/campuses/${params.campusId}/contacts`, 'campuses.saved');
    },
  })(args);

export default function CampusContactsTab() {
  const { campus, can: allowed } = useCampus();
  const { countries, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useAnswerError(data);
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/campuses/schema').then((m) => m.campusContactsSchema),
    id: `campus-contacts-${campus.updated_at}`,
    lastResult: data?.submission,
    defaultValue: { contacts: contactsFormValue(campus.contacts, { secondary: 1, custom: 0 }) } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!allowed.update || !countries)
    return <ContactsView contacts={campus.contacts} types={CAMPUS_CONTACT_TYPES} />;
  return (
    <AppForm method="post" {...getFormProps(form)} key={form.id} className="space-y-6">
      <DefaultSubmit value="contacts" />
      <FormErrors errors={form.errors} />
      <Card>
        <ContactsEditor
          form={form}
          field={fieldsetOf(fields.contacts)}
          types={CAMPUS_CONTACT_TYPES}
          countries={countries}
        />
      </Card>
      <SaveButton />
    </AppForm>
  );
}
