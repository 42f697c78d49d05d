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
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { can } from '@server/domain/access/actor';
import { schoolClientSchema } from '@server/domain/clients/schema';
import { getOwnClient, updateOwnClient } from '@server/domain/clients/profile';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { failedReply, saveClient } from '~/lib/clients.server';
import { pageTitle } from '~/lib/meta';
import { AppForm, FormErrors } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { useActionSnack } from '~/components/ui/snackbar';
import { ContactsEditor, type ObjectField } from '~/components/contacts/contacts-editor';
import { AddressView, ContactsView } from '~/components/contacts/contacts-view';
import { ClientProfileFields } from '~/components/clients/client-form';
import { ClientStatusBadge } from '~/components/clients/client-bits';
import { Facts } from '~/components/ui/facts';

const SCHOOL_CONTACT_TYPES = ['owner', 'secondary', 'accounting'] as const;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_school_profile');
  const canUpdate = can(ctx.actor, 'update_school_profile');
  const [client, countries] = await Promise.all([
    orNotFound(getOwnClient(ctx)),
    canUpdate ? countryOptions(ctx.db) : Promise.resolve(null),
  ]);
  return json({
    client,
    countries,
    canUpdate,
    title: pageTitle(context, request, 'clients.school_info_title'),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requirePermissions(request, context, 'update_school_profile');
  const submission = parseWithZod(await request.formData(), { schema: schoolClientSchema });
  if (submission.status === undefined) return json({ result: submission.reply(), saved: false });
  if (submission.status !== 'success')
    return json({ result: failedReply(submission), saved: false }, { status: 400 });
  const r = await saveClient(submission, () => updateOwnClient(ctx, submission.value));
  return json(
    { result: r.ok ? submission.reply() : r.reply, saved: r.ok },
    { status: r.ok ? 200 : r.status },
  );
}

export default function SchoolInfo() {
  const { t } = useTranslation();
  const { client, countries, canUpdate } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  useActionSnack(data?.saved ? data : null, 'success', t('clients.saved'));
  const [form, fields] = useForm<z.input<typeof schoolClientSchema>>({
    id: 'school-info',
    lastResult: data?.result,
    defaultValue: {
      name: client.name,
      description: client.description ?? '',
      website: client.website ?? '',
      phone_country: client.phone_country ?? '',
      phone_number: client.phone_number ?? '',
      preferred_lang: client.preferred_lang,
      contacts: contactsFormValue(client.contacts) as never,
    } as never,
    constraint: getZodConstraint(schoolClientSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schoolClientSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
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
              field={all.contacts}
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
