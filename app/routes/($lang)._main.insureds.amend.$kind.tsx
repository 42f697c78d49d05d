/**
 * /insureds/amend/{extend|trip-dates|cancel|group-name|group-leader}: where the insureds list's bulk bar
 * (and the insured page, with `ids=<its public id>`) posts a selection (ids, or all matching + filters).
 * - extend, trip-dates, cancel: a draft amendment of the selection is made and the user goes on to its
 *   quote page, /insureds/amendments/{id}, which asks for the new dates or the reason.
 * - group-name, group-leader: a small form here, carrying the selection; saving goes back to /insureds
 *   with a toast. These move no money, so they are applied at once (one batch each).
 * Opened without a selection, the page says to choose insureds in the list. Opened with one (`?ids=`) for
 * a money kind, there is nothing to decide here: the draft is made and the page goes straight on to the
 * quote page, which lists the insureds with their current dates.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AMEND_PERMISSION } from '@server/domain/policies/amendments/values';
import { policyListQuerySchema } from '@server/domain/policies/list-query';
import { amendKindParamsSchema, amendStartSchema, groupNameInput } from '~/lib/schemas.server';
import { formAction, answerOf } from '~/lib/actions';
import {
  assignGroupLeader,
  createAmendment,
  groupLeaderOptions,
  selectionSize,
  updateGroupName,
} from '~/lib/amendments.server';
import { pageLoader } from '~/lib/loaders.server';
import { bulkSchema, lenientQuery } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { msg } from '@server/domain/messages';
import { AppForm, FieldShell, Input, Select } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink } from '~/components/ui/button';
import { EmptyState } from '~/components/ui/list-controls';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * Opened with `?ids=` (a link from the insured page, or a form without JavaScript), the page shows the
 * selection and, for the group changes, their form; for the money kinds it makes the draft (a draft moves
 * nothing: the quote page asks the dates, and only its confirmation applies them) and goes on to it.
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: AMEND_PERMISSION,
    params: amendKindParamsSchema,
    async load({ ctx, request, context, params: { kind } }) {
      const ids = new URL(request.url).searchParams.getAll('ids').filter(Boolean).slice(0, 1000);
      let chosen: Chosen | null = null;
      if (ids.length) {
        const selection = { all_matching: false as const, ids };
        const query = lenientQuery(policyListQuerySchema, {});
        if (kind === 'extend' || kind === 'trip_dates' || kind === 'cancel') {
          const { id } = await createAmendment(ctx, { kind, selection, query });
          throw redirect(localePath(ctx.lang ?? 'en', `/insureds/amendments/${id}`));
        }
        chosen =
          kind === 'group_leader'
            ? { ids, all_matching: false, filters: '', ...(await groupLeaderOptions(ctx, selection, query)) }
            : { ids, all_matching: false, filters: '', count: await selectionSize(ctx, selection, query) };
      }
      return json({ kind, chosen, title: pageTitle(context, request, `amendments.start.${kind}`) });
    },
  })(args);

interface Chosen {
  ids: string[];
  all_matching: boolean;
  filters: string;
  count: number;
  leaders?: { id: string; policy_number: string; first_name: string; last_name: string }[];
  sameClient?: boolean;
  error?: string;
}

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: amendStartSchema,
    permission: AMEND_PERMISSION,
    params: amendKindParamsSchema,
    async handle(input, { ctx, params: { kind }, redirect }) {
      const { selection, filters } = bulkSchema.parse(input);
      const query = lenientQuery(policyListQuerySchema, filters);
      if (kind === 'extend' || kind === 'trip_dates' || kind === 'cancel') {
        const { id } = await createAmendment(ctx, { kind, selection, query });
        return redirect(`/insureds/amendments/${id}`);
      }
      const chosen: Chosen = {
        ids: input.ids,
        all_matching: !!input.all_matching,
        filters: input.filters ?? '',
        count: 0,
      };
      if (kind === 'group_name') {
        if (input.save) {
          const name = groupNameInput.safeParse(input.group_name ?? '');
          if (name.success) {
            const { updated } = await updateGroupName(ctx, { selection, query, group_name: name.data });
            return redirect('/insureds', msg('amendments.messages.group_name_updated', { count: updated }));
          }
          chosen.error = name.error.issues[0]?.message;
        }
        return { data: { ...chosen, count: await selectionSize(ctx, selection, query) } };
      }
      if (input.save) {
        const { updated } = await assignGroupLeader(ctx, {
          selection,
          query,
          group_leader_id: input.group_leader_id || null,
        });
        return redirect('/insureds', msg('amendments.messages.group_leader_updated', { count: updated }));
      }
      const options = await groupLeaderOptions(ctx, selection, query);
      return { data: { ...chosen, ...options } };
    },
  })(args);

function SelectionInputs({ chosen }: { chosen: Chosen }) {
  return chosen.all_matching ? (
    <>
      <input type="hidden" name="all_matching" value="true" />
      <input type="hidden" name="filters" value={chosen.filters} />
    </>
  ) : (
    chosen.ids.map((id) => <input key={id} type="hidden" name="ids" value={id} />)
  );
}

export default function AmendStart() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { kind, chosen: linked } = useLoaderData<typeof loader>();
  const answer = answerOf<Chosen>(useActionData<typeof action>());
  const busy = useNavigation().state !== 'idle';
  // The money kinds never stop here with a selection (the loader and the action go on to the quote).
  const chosen = answer?.data ?? linked;
  const back = localePath(i18n.language, '/insureds');
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title={t(`amendments.start.${kind}`)} />
      {answer?.error ? <Alert>{m(answer.error)}</Alert> : null}
      {!chosen ? (
        <EmptyState
          message={t('amendments.start.choose_first')}
          action={
            <ButtonLink to={back} variant="secondary">
              {t('amendments.back_to_list')}
            </ButtonLink>
          }
        />
      ) : (
        <Card>
          <p className="mb-4 text-sm text-slate-700" data-testid="selection-count">
            {t('amendments.start.selected', { count: chosen.count })}
          </p>
          <AppForm method="post" className="space-y-4">
            <SelectionInputs chosen={chosen} />
            <input type="hidden" name="save" value="1" />
            {kind === 'group_name' ? (
              <FieldShell
                id="group_name"
                label={t('amendments.fields.group_name')}
                hint={t('amendments.start.group_name_hint')}
                errors={chosen.error ? [m(chosen.error)] : undefined}
                errorId="group_name-error"
              >
                <Input
                  id="group_name"
                  name="group_name"
                  required
                  minLength={3}
                  maxLength={50}
                  aria-invalid={chosen.error ? true : undefined}
                  aria-describedby={chosen.error ? 'group_name-error' : undefined}
                />
              </FieldShell>
            ) : chosen.sameClient === false ? (
              <Alert>{m('amendments.errors.leader_client')}</Alert>
            ) : (
              <FieldShell id="group_leader_id" label={t('amendments.fields.group_leader')}>
                <Select id="group_leader_id" name="group_leader_id" defaultValue="">
                  <option value="">{t('amendments.start.no_group_leader')}</option>
                  {(chosen.leaders ?? []).map((l) => (
                    <option key={l.id} value={l.id}>
                      {`${l.first_name} ${l.last_name} (${l.policy_number})`}
                    </option>
                  ))}
                </Select>
              </FieldShell>
            )}
            <div className="flex flex-wrap justify-between gap-3">
              <Link to={back} className="self-center text-sm font-medium text-primary-700 hover:underline">
                {t('amendments.back_to_list')}
              </Link>
              {kind === 'group_leader' && chosen.sameClient === false ? null : (
                <Button type="submit" disabled={busy}>
                  {t('amendments.start.save')}
                </Button>
              )}
            </div>
          </AppForm>
        </Card>
      )}
    </div>
  );
}
