/** The form that starts a conversation: whom it is with, the subject, the first message, attachments. */
import { getFormProps, getSelectProps, type SubmissionResult } from '@conform-to/react';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ConversationTargets } from '@server/domain/conversations/options';
import { AppForm, Field, FieldShell, FormErrors, Select, TextAreaField, errorsOf } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { useSchemaForm, type Constraints } from '~/lib/schema-form';
import { AttachmentsInput } from './attachments-input';

type About = Partial<
  Record<'client_id' | 'campus_id' | 'policy_batch_id' | 'policy_id' | 'invoice_id', string>
>;

export function NewConversationForm({
  targets,
  about,
  limits,
  constraint,
  lastResult,
}: {
  targets: ConversationTargets;
  about: About;
  limits: { files: number; mb: number };
  constraint?: Constraints;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const staff = targets.side === 'company';
  const [form, fields] = useSchemaForm({
    id: 'new-conversation',
    schema: () => import('@server/domain/conversations/schema').then((m) => m.startConversationSchema),
    lastResult: lastResult ?? undefined,
    defaultValue: { client_id: about.client_id ?? '', campus_id: about.campus_id ?? '' },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const byClient = new Map<string, { name: string; campuses: { id: string; name: string }[] }>();
  for (const c of targets.campuses) {
    const group = byClient.get(c.client_id) ?? { name: c.client_name, campuses: [] };
    group.campuses.push({ id: c.id, name: c.name });
    byClient.set(c.client_id, group);
  }
  const { key: clientKey, ...clientProps } = getSelectProps(fields.client_id);
  const { key: campusKey, ...campusProps } = getSelectProps(fields.campus_id);
  return (
    <AppForm method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-5">
      <FormErrors errors={form.errors} />
      {(['policy_batch_id', 'policy_id', 'invoice_id'] as const).map((name) =>
        about[name] ? <input key={name} type="hidden" name={name} value={about[name]} /> : null,
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {staff ? (
          <FieldShell
            id={fields.client_id.id}
            label={t('conversations.fields.client')}
            hint={t('conversations.client_hint')}
            errors={fields.client_id.errors}
            errorId={fields.client_id.errorId}
          >
            <Select
              key={clientKey}
              {...clientProps}
              placeholder={t('conversations.choose_client')}
              options={targets.clients.map((c) => ({ value: c.id, label: c.name }))}
            />
          </FieldShell>
        ) : null}
        {targets.campuses.length ? (
          <FieldShell
            id={fields.campus_id.id}
            label={
              targets.campus_required ? t('conversations.fields.campus') : t('conversations.campus_optional')
            }
            hint={staff ? t('conversations.campus_hint_staff') : t('conversations.campus_hint_school')}
            errors={fields.campus_id.errors}
            errorId={fields.campus_id.errorId}
          >
            <Select
              key={campusKey}
              {...campusProps}
              required={targets.campus_required || undefined}
              placeholder={
                targets.campus_required ? t('conversations.choose_campus') : t('conversations.whole_school')
              }
            >
              {staff
                ? [...byClient].map(([id, group]) => (
                    <optgroup key={id} label={group.name}>
                      {group.campuses.map((c) => (
                        <option key={c.id} value={c.id}>
                          {c.name}
                        </option>
                      ))}
                    </optgroup>
                  ))
                : targets.campuses.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
            </Select>
          </FieldShell>
        ) : null}
      </div>
      <Field label={t('conversations.fields.subject')} field={fields.subject} />
      <TextAreaField label={t('conversations.fields.message')} field={fields.message} rows={8} />
      <AttachmentsInput
        id={`${form.id}-attachments`}
        errors={errorsOf(fields, 'attachments')}
        limits={limits}
      />
      {['policy_batch_id', 'policy_id', 'invoice_id'].map((name) => (
        <FormErrors key={name} errors={errorsOf(fields, name)} />
      ))}
      <Button type="submit" disabled={busy}>
        {t('conversations.send')}
      </Button>
    </AppForm>
  );
}
