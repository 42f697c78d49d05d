/**
 * The users screens' pieces, shared by /manage-users, the client's Users tab and the campus's Users tab:
 * the users table, the invite / edit form and the state buttons of one user.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Link, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ListMeta } from '@server/domain/list-query';
import { USER_MEMBER_TYPES, type InvitationStateName, type UserFamily } from '@server/domain/users/values';
import { localePath } from '~/i18n/config';
import {
  AppForm,
  Checkbox,
  CheckboxField,
  Field,
  FieldShell,
  FormErrors,
  SelectField,
} from '~/components/forms';
import { ErrorList } from '~/components/fields';
import { errorsOf } from '~/components/forms';
import { Button, buttonClass } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { EmptyState, FilterSelect } from '~/components/ui/list-controls';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import type { UserMoveName } from '@server/domain/users/moves';
import { ConfirmButton } from '~/components/ui/confirm';

export interface UserRowData {
  id: string;
  full_name: string;
  email: string;
  member_type: 'admin' | 'employee' | null;
  is_master_user: boolean;
  status: string;
  suspended: boolean;
  can_access_all_campuses: boolean;
  role: string | null;
  invitation: InvitationStateName | null;
  belongs_to: string | null;
}

/** Where one user's page is: /manage-users/company/{id} or /manage-users/school/{id}. */
export const userPath = (family: UserFamily, id: string) => `/manage-users/${family}/${id}`;

export function UserStatus({ status, suspended }: { status: string; suspended: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex flex-wrap gap-1">
      <StatusBadge tone={statusTone(status)}>{t(`users.statuses.${status}`)}</StatusBadge>
      {suspended ? <StatusBadge tone="red">{t('users.statuses.suspended')}</StatusBadge> : null}
    </span>
  );
}

export function InvitationBadge({ state }: { state: InvitationStateName | null }) {
  const { t } = useTranslation();
  if (!state) return <span className="text-slate-500">—</span>;
  const tone =
    state === 'accepted' ? 'green' : state === 'pending' ? 'blue' : state === 'revoked' ? 'red' : 'slate';
  return <StatusBadge tone={tone}>{t(`users.invitation_states.${state}`)}</StatusBadge>;
}

/** The users table: name (to the user's page), email, role, type, status, invitation, and client or companies. */
export function UsersTable({
  family,
  rows,
  meta,
  caption,
  belongsTo,
  emptyAction,
}: {
  family: UserFamily;
  rows: UserRowData[];
  meta: ListMeta;
  caption: string;
  /** The column header of the client (school users) or companies (company users); none hides it. */
  belongsTo?: string;
  emptyAction?: React.ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const columns: Column<UserRowData>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('users.fields.name'),
      sort: 'name',
      render: (r) => (
        <Link
          to={localePath(i18n.language, userPath(family, r.id))}
          className="font-medium text-primary-800 hover:underline"
        >
          {r.full_name}
        </Link>
      ),
    },
    { key: 'email', card: 'figure', header: t('users.fields.email'), sort: 'email', render: (r) => r.email },
    { key: 'role', card: 'figure', header: t('users.fields.role'), render: (r) => r.role ?? '—' },
    {
      key: 'type',
      card: 'hidden',
      header: t('users.fields.member_type'),
      render: (r) =>
        [
          r.member_type ? t(`users.member_types.${r.member_type}`) : null,
          r.is_master_user ? t('users.master') : null,
        ]
          .filter(Boolean)
          .join(' · ') || '—',
    },
    ...(family === 'school'
      ? [
          {
            key: 'access',
            card: 'hidden' as const,
            header: t('users.fields.campus_access'),
            render: (r: UserRowData) =>
              r.can_access_all_campuses ? t('users.all_campuses') : t('users.chosen_campuses'),
          },
        ]
      : []),
    {
      key: 'status',
      card: 'status',
      header: t('users.fields.status'),
      sort: 'status',
      render: (r) => <UserStatus status={r.status} suspended={r.suspended} />,
    },
    {
      key: 'invitation',
      card: 'hidden',
      header: t('users.fields.invitation'),
      render: (r) => <InvitationBadge state={r.invitation} />,
    },
    ...(belongsTo
      ? [
          {
            key: 'belongs_to',
            card: 'figure' as const,
            header: belongsTo,
            render: (r: UserRowData) => r.belongs_to ?? '—',
          },
        ]
      : []),
  ];
  return (
    <DataTable
      rows={rows}
      columns={columns}
      rowId={(r) => r.id}
      meta={meta}
      caption={caption}
      empty={<EmptyState message={t('users.empty')} action={emptyAction} />}
    />
  );
}

// ---------------------------------------------------------------- the form

export interface UserFormOptions {
  roles: { id: string; name: string }[];
  companies: { id: string; name: string }[];
  campuses: { id: string; name: string }[];
  client: { id: string; name: string } | null;
  may_grant_all_campuses: boolean;
}

export interface UserFormValue {
  first_name: string;
  last_name: string;
  email: string;
  phone_country: string | null;
  phone_number: string | null;
  member_type: 'admin' | 'employee' | null;
  job_title: string | null;
  department: string | null;
  is_master_user: boolean;
  can_access_all_campuses: boolean;
  roles: { id: string }[];
  companies: { id: string }[];
  campuses: { id: string }[];
}

/** Invite (no `user`) or edit a user of a family: the person, their type, roles and companies or campuses. */
export function UserForm({
  family,
  user,
  options,
  lastResult,
  intent,
  submitLabel,
}: {
  family: UserFamily;
  user: UserFormValue | null;
  options: UserFormOptions;
  lastResult: SubmissionResult<string[]> | null | undefined;
  intent?: string;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: `user-${family}-${intent ?? 'new'}`,
    lastResult,
    shouldValidate: 'onSubmit',
    defaultValue: {
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      email: user?.email ?? '',
      phone_country: user?.phone_country ?? '',
      phone_number: user?.phone_number ?? '',
      member_type: user?.member_type ?? 'employee',
      job_title: user?.job_title ?? '',
      department: user?.department ?? '',
      is_master_user: user?.is_master_user ? 'on' : undefined,
      can_access_all_campuses: user?.can_access_all_campuses ? 'on' : undefined,
    },
  });
  const has = (list: { id: string }[] | undefined, id: string) => !!list?.some((x) => x.id === id);
  const checks = (
    name: 'roles' | 'companies' | 'campuses',
    items: { id: string; name: string }[],
    chosen: { id: string }[] | undefined,
    label: string,
  ) => (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700">{label}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {items.map((item) => (
          <Checkbox
            key={item.id}
            id={`${form.id}-${name}-${item.id}`}
            name={name}
            value={item.id}
            label={item.name}
            defaultChecked={has(chosen, item.id)}
          />
        ))}
      </div>
      <ErrorList id={`${form.id}-${name}-error`} errors={errorsOf(fields, name)} />
    </fieldset>
  );
  return (
    <Card>
      <AppForm method="post" {...getFormProps(form)} className="space-y-5">
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        {family === 'school' && options.client && !user ? (
          <input type="hidden" name="client" value={options.client.id} />
        ) : null}
        <FormErrors errors={form.errors} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label={t('users.fields.first_name')}
            field={fields.first_name}
            inputProps={{ autoComplete: 'off' }}
          />
          <Field
            label={t('users.fields.last_name')}
            field={fields.last_name}
            inputProps={{ autoComplete: 'off' }}
          />
          <Field
            label={t('users.fields.email')}
            field={fields.email}
            type="email"
            inputProps={{ autoComplete: 'off' }}
          />
          <div className="grid grid-cols-[6rem_1fr] gap-3">
            <Field
              label={t('users.fields.phone_country')}
              field={fields.phone_country}
              inputProps={{ maxLength: 2, placeholder: 'GB' }}
            />
            <Field label={t('users.fields.phone_number')} field={fields.phone_number} type="tel" />
          </div>
          <SelectField
            label={t('users.fields.member_type')}
            field={fields.member_type}
            options={USER_MEMBER_TYPES.map((v) => ({ value: v, label: t(`users.member_types.${v}`) }))}
          />
          <Field label={t('users.fields.job_title')} field={fields.job_title} />
          <Field label={t('users.fields.department')} field={fields.department} />
          <div className="self-end pb-2">
            <CheckboxField
              label={t('users.fields.is_master_user')}
              field={fields.is_master_user}
              hint={t('users.master_hint')}
            />
          </div>
        </div>
        {checks('roles', options.roles, user?.roles, t('users.fields.roles'))}
        {family === 'company'
          ? checks('companies', options.companies, user?.companies, t('users.fields.companies'))
          : null}
        {family === 'school' ? (
          <>
            {options.client ? (
              <FieldShell id={`${form.id}-client`} label={t('users.fields.client')}>
                <p id={`${form.id}-client`} className="text-sm text-slate-800">
                  {options.client.name}
                </p>
              </FieldShell>
            ) : null}
            {options.may_grant_all_campuses ? (
              <CheckboxField
                label={t('users.fields.can_access_all_campuses')}
                field={fields.can_access_all_campuses}
              />
            ) : null}
            {checks('campuses', options.campuses, user?.campuses, t('users.fields.campuses'))}
          </>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {submitLabel}
          </Button>
        </div>
      </AppForm>
    </Card>
  );
}

// ---------------------------------------------------------------- state buttons

const DANGER: UserMoveName[] = ['archive', 'suspend', 'decline', 'delete', 'revoke', 'cancel'];

/** One button per move the user's state allows and the actor may make, each a small form of its intent. */
export function UserMoves({ moves, name }: { moves: UserMoveName[]; name: string }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  if (moves.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {moves.map((move) => (
        <AppForm key={move} method="post" preventScrollReset>
          {DANGER.includes(move) ? (
            <ConfirmButton
              name="intent"
              value={move}
              disabled={busy}
              className={buttonClass('danger')}
              question={t(`users.confirm.${move}`, { name })}
            >
              {t(`users.moves.${move}`)}
            </ConfirmButton>
          ) : (
            <Button type="submit" name="intent" value={move} disabled={busy} variant="secondary">
              {t(`users.moves.${move}`)}
            </Button>
          )}
        </AppForm>
      ))}
    </div>
  );
}

/** The status filter of school users lists: active first (the default), the declined list, everyone. */
export function SchoolUserStatusFilter() {
  const { t } = useTranslation();
  return (
    <FilterSelect
      name="status"
      label={t('users.fields.status')}
      options={(['active', 'invited', 'pending', 'suspended', 'archived', 'declined', 'all'] as const).map(
        (s) => ({
          value: s,
          label: t(`users.statuses.${s}`),
        }),
      )}
    />
  );
}
