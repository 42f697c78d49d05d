/**
 * /message-centre/send: the clients list's bulk "Send message…" (spec 001 s.2). The list posts its
 * selection here (intent `send_message_select`: ids, or all matching with the filters); the page asks for
 * the subject and the message, keeping the chosen clients in hidden fields, and sending starts one
 * conversation per client, then goes back to the list saying how many were started.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { selectedClients } from '@server/domain/clients/status';
import { startForClients } from '@server/domain/conversations/service';
import { msg } from '@server/domain/messages';
import { bulkStartSchema, constraintsOf } from '~/lib/schemas.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { pageLoader } from '~/lib/loaders.server';
import { bulkSchema } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useSchemaForm } from '~/lib/schema-form';
import { AppForm, Field, FormErrors, TextAreaField, errorsOf } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_message',
    load: ({ request, context }) =>
      json({
        title: pageTitle(context, request, 'conversations.bulk.title'),
        constraint: constraintsOf(bulkStartSchema),
      }),
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      send_message_select: { schema: bulkSchema, permission: 'create_message' },
      send_message: { schema: bulkStartSchema, permission: 'create_message' },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'send_message_select': {
          const rows = await selectedClients(ctx, {
            ids: input.selection.all_matching ? undefined : input.selection.ids,
            all_matching: input.selection.all_matching,
            // The list's default tab is active: 'all matching' without a tab means the active tab.
            filters: { tab: 'active', ...input.filters },
          });
          return { data: { clients: rows.map((r) => ({ id: r.public_id, name: r.name })) } };
        }
        case 'send_message': {
          const { ids } = await startForClients(ctx, input);
          return redirect('/clients', msg('conversations.api.bulk_started', { count: ids.length }));
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

type Picked = { clients: { id: string; name: string }[] };

export default function SendMessage() {
  const { t, i18n } = useTranslation();
  const { constraint } = useLoaderData<typeof loader>();
  const answer = answerOf<Picked>(useActionData<typeof action>());
  useAnswerError(answer);
  const picked = answer?.intent === 'send_message_select' && answer.ok ? answer.data : null;
  const lastResult = answer?.intent === 'send_message' ? answer.submission : null;
  // After a refused send the clients come back from the posted form (Conform keeps the fields).
  const ids =
    picked?.clients.map((c) => c.id) ??
    ([] as string[]).concat((lastResult?.initialValue?.client_ids as string[] | undefined) ?? []);
  const [form, fields] = useSchemaForm({
    id: 'send-message',
    schema: () => import('@server/domain/conversations/schema').then((m) => m.bulkStartSchema),
    lastResult: lastResult ?? undefined,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const back = localePath(i18n.language, '/clients');
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('conversations.bulk.title')}
        description={ids.length ? t('conversations.bulk.for_clients', { count: ids.length }) : undefined}
        actions={
          <ButtonLink to={back} variant="secondary">
            {t('conversations.bulk.back')}
          </ButtonLink>
        }
      />
      <Card>
        {ids.length ? (
          <AppForm method="post" {...getFormProps(form)} className="space-y-5">
            <FormErrors errors={[...(form.errors ?? []), ...(errorsOf(fields, 'client_ids') ?? [])]} />
            {ids.map((id) => (
              <input key={id} type="hidden" name="client_ids" value={id} />
            ))}
            {picked ? (
              <p className="text-sm text-slate-700" data-testid="bulk-clients">
                {picked.clients.map((c) => c.name).join(', ')}
              </p>
            ) : null}
            <Field label={t('conversations.fields.subject')} field={fields.subject} />
            <TextAreaField label={t('conversations.fields.message')} field={fields.message} rows={8} />
            <p className="text-xs text-slate-500">{t('conversations.bulk.hint')}</p>
            <Button type="submit" name="intent" value="send_message">
              {t('conversations.send')}
            </Button>
          </AppForm>
        ) : (
          <Alert>{t('conversations.bulk.nothing')}</Alert>
        )}
      </Card>
    </div>
  );
}
