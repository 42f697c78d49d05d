/**
 * The invite page and the user page of /manage-users, for both families (the route files of
 * manage-users_.company.* and manage-users_.school.* render these with their loader's data).
 */
import type { SerializeFrom } from '@remix-run/cloudflare';
import { Form, useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { UserFamily } from '@server/domain/users/values';
import type { newUserLoader, userLoader } from '~/lib/users.server';
import { answerOf } from '~/lib/actions';
import { britishDate } from '~/lib/dates';
import { localePath } from '~/i18n/config';
import { Select } from '~/components/forms';
import { Label } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { Facts } from '~/components/ui/facts';
import { useAnswerError } from '~/components/ui/snackbar';
import { ViewAsLink } from '~/components/support/view-as-link';
import { InvitationBadge, UserForm, UserMoves, UserStatus } from './users';

const backTo = (family: UserFamily) =>
  family === 'company' ? '/manage-users' : '/manage-users/school-users';

/** What the invite page shows: its loader's data (`newUserLoader`). */
export type NewUserData = SerializeFrom<typeof newUserLoader>;

/** Invite a user. Company staff inviting a school user choose the client first (its campuses follow). */
export function NewUserPage({ family, options }: NewUserData) {
  const { t, i18n } = useTranslation();
  const lastResult = answerOf(useActionData())?.submission;
  const chooseClient = family === 'school' && !options.client;
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t(`users.invite_${family}`)}
        description={t(family === 'company' ? 'users.invite_company_intro' : 'users.invite_school_intro')}
        actions={
          <ButtonLink to={localePath(i18n.language, backTo(family))} variant="secondary">
            {t('users.back_to_list')}
          </ButtonLink>
        }
      />
      {chooseClient ? (
        <Card>
          <Form method="get" className="flex flex-wrap items-end gap-3">
            <div className="min-w-64 flex-1">
              <Label htmlFor="choose-client">{t('users.fields.client')}</Label>
              <Select
                id="choose-client"
                name="client"
                required
                placeholder={t('users.choose_client')}
                options={options.clients.map((c) => ({ value: c.id, label: c.name }))}
              />
            </div>
            <Button type="submit">{t('users.continue')}</Button>
          </Form>
        </Card>
      ) : (
        <UserForm
          family={family}
          user={null}
          options={options}
          lastResult={lastResult}
          submitLabel={t('users.send_invitation')}
        />
      )}
    </div>
  );
}

/** What a user's page shows: its loader's data (`userLoader`). */
export type UserData = SerializeFrom<typeof userLoader>;

/** One user: who they are, their state and invitation, the moves allowed now, and the edit form. */
export function UserPage({ family, user, moves, canEdit, options }: UserData) {
  const { t, i18n } = useTranslation();
  const answer = answerOf(useActionData());
  useAnswerError(answer);
  const date = (d: string | Date | null) => britishDate(d, '—');
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={user.full_name}
        description={user.email}
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <ViewAsLink
              user={{
                id: user.id,
                user_type: family,
                first_name: user.first_name,
                last_name: user.last_name,
              }}
            />
            <ButtonLink to={localePath(i18n.language, backTo(family))} variant="secondary">
              {t('users.back_to_list')}
            </ButtonLink>
          </div>
        }
      />
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <Facts
            items={[
              {
                label: t('users.fields.status'),
                value: <UserStatus status={user.status} suspended={user.suspended} />,
              },
              {
                label: t('users.fields.invitation'),
                value: (
                  <span className="inline-flex items-center gap-2">
                    <InvitationBadge state={user.invitation?.state ?? null} />
                    {user.invitation?.state === 'pending'
                      ? t('users.invitation_until', { date: date(user.invitation.expires_at) })
                      : null}
                  </span>
                ),
              },
              { label: t('users.fields.role'), value: user.roles.map((r) => r.name).join(', ') || '—' },
              family === 'company'
                ? {
                    label: t('users.fields.companies'),
                    value: user.companies.map((c) => c.name).join(', ') || '—',
                  }
                : {
                    label: t('users.fields.campus_access'),
                    value: user.can_access_all_campuses
                      ? t('users.all_campuses')
                      : user.campuses.map((c) => c.name).join(', ') || '—',
                  },
              ...(user.client ? [{ label: t('users.fields.client'), value: user.client.name }] : []),
              { label: t('users.fields.last_login'), value: date(user.last_login_at) },
            ]}
          />
          <UserMoves moves={moves} name={user.full_name} />
        </div>
      </Card>
      {canEdit && options ? (
        <section aria-labelledby="edit-user">
          <h2 id="edit-user" className="mb-3 text-lg font-semibold text-slate-900">
            {t('users.edit')}
          </h2>
          <UserForm
            key={String(user.updated_at)}
            family={family}
            user={user}
            options={options}
            lastResult={answer?.intent === 'save' ? answer.submission : undefined}
            intent="save"
            submitLabel={t('users.save')}
          />
        </section>
      ) : null}
    </div>
  );
}
