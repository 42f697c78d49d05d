/**
 * /school/info: a school user's own client profile (spec 002: name, description, website, phone,
 * preferred language, owner / secondary / accounting contacts). Users with update_school_profile edit
 * it; others read it. Nothing of any other client is reachable from here.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { CLIENT_SAVE_FAILED } from '@server/domain/clients/saving';
import { getOwnClient, updateOwnClient } from '@server/domain/clients/profile';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { useSchemaForm } from '~/lib/schema-form';
import { constraintsOf, schoolClientSchema } from '~/lib/schemas.server';
import { AppForm, FormErrors } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ContactsEditor, fieldsetOf, type ObjectField } from '~/components/contacts/contacts-editor';
import { AddressView, ContactsView } from '~/components/contacts/contacts-view';
import { ClientProfileFields } from '~/components/clients/client-form';
import { ClientStatusBadge } from '~/components/clients/client-bits';
import { Facts } from '~/components/ui/facts';
import { pageLoader } from '~/lib/loaders.server';

const SCHOOL_CONTACT_TYPES = ['owner', 'secondary', 'accounting'] as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_school_profile',
    async load({ ctx, request, context }) {
      const canUpdate = can(ctx.actor, 'update_school_profile');
      const [client, countries] = await Promise.all([
        getOwnClient(ctx),
        canUpdate ? countryOptions(ctx.db) : Promise.resolve(null),
      ]);
      return json({
        client,
        countries,
        canUpdate,
        constraint: constraintsOf(schoolClientSchema),
        title: pageTitle(context, request, 'clients.school_info_title'),
      });
    },
  })(args);

/** On any refusal 'Unable to save the client!' is said above the form (spec 001 s.8). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: schoolClientSchema,
    permission: 'update_school_profile',
    formError: CLIENT_SAVE_FAILED,
    async handle(input, { ctx }) {
      await updateOwnClient(ctx, input);
      return { toast: 'clients.saved' };
    },
  })(args);

export default function SchoolInfo() {
  const { t } = useTranslation();
  const { client, countries, canUpdate, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: 'school-info',
    schema: () => import('@server/domain/clients/schema').then((m) => m.schoolClientSchema),
    lastResult,
    constraint,
    defaultValue: {
      name: client.name,
      description: client.description ?? '',
      website: client.website ?? '',
      phone_country: client.phone_country ?? '',
      phone_number: client.phone_number ?? '',
      preferred_lang: client.preferred_lang,
      contacts: contactsFormValue(client.contacts) as never,
    } as never,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  // The schema loads lazily (useSchemaForm), so Conform cannot type the fields; the nested ones are read by name.
  const all = fields as unknown as Record<string, ObjectField>;
  const facts = (
    <Card>
      <Facts
        items={[
          { label: t('clients.fields.status'), value: <ClientStatusBadge status={client.status} /> },
          { label: t('clients.fields.company'), value: client.company.name },
          {
            label: t('clients.school.account_manager'),
            value: client.account_manager ? (
              <a href={`mailto:${client.account_manager.email}`} className="text-primary-800 hover:underline">
                {client.account_manager.name}
              </a>
            ) : (
              '—'
            ),
          },
        ]}
      />
    </Card>
  );
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={t('clients.school_info_title')}
        description={canUpdate ? t('clients.school.intro') : t('clients.school.read_only')}
      />
      {facts}
      {canUpdate ? (
        <AppForm method="post" {...getFormProps(form)} className="space-y-6">
          <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" />
          <FormErrors errors={form.errors} />
          <Card>
            <h2 className="mb-4 text-base font-semibold">{t('clients.sections.profile')}</h2>
            <ClientProfileFields fields={all} school />
          </Card>
          <Card>
            <h2 className="mb-4 text-base font-semibold">{t('clients.sections.contacts')}</h2>
            <ContactsEditor
              form={form}
              field={fieldsetOf(fields, 'contacts')}
              types={SCHOOL_CONTACT_TYPES}
              countries={countries ?? []}
            />
          </Card>
          <div className="flex justify-end">
            <Button type="submit" disabled={busy}>
              {t('common.save')}
            </Button>
          </div>
        </AppForm>
      ) : (
        <>
          <Card>
            <h2 className="mb-4 text-base font-semibold">{client.name}</h2>
            <Facts
              items={[
                { label: t('clients.fields.website'), value: client.website ?? '—' },
                {
                  label: t('clients.fields.phone_number'),
                  value: client.phone_number ? `${client.phone_country ?? ''} ${client.phone_number}` : '—',
                },
                {
                  label: t('clients.fields.preferred_lang'),
                  value: t(`clients.languages.${client.preferred_lang}`),
                },
                { label: t('clients.fields.description'), value: client.description ?? '—' },
              ]}
            />
          </Card>
          <Card>
            <h2 className="mb-4 text-base font-semibold">{t('clients.sections.contacts')}</h2>
            <ContactsView contacts={client.contacts} types={SCHOOL_CONTACT_TYPES} />
          </Card>
        </>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <AddressView address={client.billing_address} title={t('contacts.address.billing')} />
        <AddressView address={client.mailing_address} title={t('contacts.address.mailing')} />
      </div>
    </div>
  );
}
