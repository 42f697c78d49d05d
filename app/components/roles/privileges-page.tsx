/**
 * One tab of /user-privileges: the family's roles (create or copy, rename, delete) and the matrix of
 * their permissions, grouped as the spec groups them. On a phone the matrix shows one role at a time
 * (the role links above it, `?role=`), so it reads without sideways scrolling; from md up every role is a
 * column. Everything works without JavaScript.
 */
import { getFormProps, useForm } from '@conform-to/react';
import type { SerializeFrom } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { privilegesLoader, privilegesAction } from '~/lib/privileges.server';
import { answerOf } from '~/lib/actions';
import { permissionVerb } from '@server/domain/roles/verbs';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { AppForm, Field, FormErrors, Input, SelectField } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { StatusBadge } from '~/components/ui/status-badge';
import { useAnswerError } from '~/components/ui/snackbar';

type Data = SerializeFrom<typeof privilegesLoader>;

/** The matrix's first column (permission names): fixed width, sticky on the left, an edge on its right. */
const FIRST_COLUMN =
  'sticky left-0 z-10 w-40 min-w-40 max-w-40 px-4 text-left text-slate-700 shadow-[1px_0_0_0_rgb(226_232_240)] sm:w-64 sm:min-w-64 sm:max-w-64 sm:px-6';

export function PrivilegesTab() {
  const { t, i18n } = useTranslation();
  const data: Data = useLoaderData<typeof privilegesLoader>();
  const { family, roles, groups, grantable, companies, canCreate, canUpdate, shownRole } = data;
  const answer = answerOf(useActionData<typeof privilegesAction>());
  useAnswerError(answer);
  const m = useMessage();
  const busy = useNavigation().state === 'submitting';
  const { pathname, key: locationKey } = useLocation();
  const holds = new Set(grantable);
  const groupLabel = (g: string) => t(`roles.groups.${g}`);
  const verbLabel = (g: string, p: string) => t(`roles.verbs.${permissionVerb(g, p)}`);
  const matrixKey = roles.map((r) => `${r.id}:${r.name}:${r.permissions.join(',')}`).join('|');
  const saveError = answer?.intent === 'save' ? answer.error : null;

  return (
    <div className="space-y-6">
      <Card flush>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-6">
          <h2 className="text-base font-semibold text-slate-900">{t('roles.list.title')}</h2>
          {canCreate ? (
            <NewRole key={locationKey} family={family} roles={roles} companies={companies} />
          ) : null}
        </div>
        <ul className="divide-y divide-slate-100" aria-label={t('roles.list.title')}>
          {roles.map((role) => (
            <li key={role.id} className="px-4 py-3 sm:px-6" data-testid="role-row">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {role.name}{' '}
                    {role.built_in ? (
                      <StatusBadge tone="slate">{t('roles.list.built_in')}</StatusBadge>
                    ) : null}
                  </p>
                  <p className="text-sm text-slate-600">
                    {role.company_name ?? t('roles.list.all_companies')} ·{' '}
                    {t('roles.list.users', { count: role.users })} ·{' '}
                    {t('roles.list.permissions', { count: role.permissions.length })}
                  </p>
                </div>
                {canUpdate ? <RoleActions role={role} family={family} /> : null}
              </div>
            </li>
          ))}
        </ul>
      </Card>

      <Card flush>
        <div className="border-b border-slate-200 px-4 py-3 sm:px-6">
          <h2 className="text-base font-semibold text-slate-900">{t('roles.matrix.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {canUpdate ? t('roles.matrix.hint') : t('roles.matrix.read_only')}
          </p>
        </div>
        {roles.length > 1 ? (
          <nav aria-label={t('roles.matrix.show_role')} className="flex flex-wrap gap-2 px-4 py-3 md:hidden">
            {roles.map((role) => (
              <Link
                key={role.id}
                to={`${pathname}?role=${role.id}`}
                preventScrollReset
                aria-current={role.id === shownRole ? 'true' : undefined}
                className={`rounded-full px-3 py-1 text-sm ring-1 ${
                  role.id === shownRole
                    ? 'bg-primary-700 text-white ring-primary-700'
                    : 'bg-white text-slate-700 ring-slate-300'
                }`}
              >
                {role.name}
              </Link>
            ))}
          </nav>
        ) : null}
        <AppForm method="post" key={matrixKey} preventScrollReset>
          <input type="hidden" name="family" value={family} />
          {roles.map((role) => (
            <input key={role.id} type="hidden" name="roles" value={role.id} />
          ))}
          {/* The matrix scrolls in its own box, both ways: the role names stay in view above it while it
              scrolls down, and the permission names beside it while it scrolls sideways (sticky, with the
              row's own background and an edge). The scroll padding keeps a focused checkbox out from under
              them. */}
          <div
            data-testid="privileges-matrix"
            className="max-h-[70vh] scroll-pl-44 scroll-pt-12 overflow-auto overscroll-contain sm:scroll-pl-68"
          >
            <table className="min-w-full text-sm">
              <caption className="sr-only">
                {t('roles.matrix.caption', { family: t(`roles.families.${family}`) })}
              </caption>
              <thead className="sticky top-0 z-20 bg-slate-50 shadow-[0_1px_0_0_rgb(226_232_240)]">
                <tr>
                  <th scope="col" className={`${FIRST_COLUMN} bg-slate-50 py-2 font-semibold`}>
                    {t('roles.matrix.permission')}
                  </th>
                  {roles.map((role) => (
                    <th
                      key={role.id}
                      scope="col"
                      className={`px-3 py-2 text-center font-semibold text-slate-700 ${
                        role.id === shownRole ? '' : 'hidden md:table-cell'
                      }`}
                    >
                      {role.name}
                    </th>
                  ))}
                </tr>
              </thead>
              {groups.map((g) => (
                <tbody key={g.group} className="border-t border-slate-200">
                  <tr className="bg-slate-50/60">
                    <th
                      scope="colgroup"
                      colSpan={roles.length + 1}
                      className="px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 sm:px-6"
                    >
                      <span className="sticky left-4 sm:left-6">{groupLabel(g.group)}</span>
                    </th>
                  </tr>
                  {g.permissions.map((p) => (
                    <tr key={p} className="border-t border-slate-100">
                      <th scope="row" className={`${FIRST_COLUMN} bg-white py-1.5 font-normal`}>
                        {verbLabel(g.group, p)}
                      </th>
                      {roles.map((role) => {
                        const checked = role.permissions.includes(p);
                        return (
                          <td
                            key={role.id}
                            className={`px-3 py-1.5 text-center ${role.id === shownRole ? '' : 'hidden md:table-cell'}`}
                          >
                            <input
                              type="checkbox"
                              name="grants"
                              value={`${role.id}:${p}`}
                              defaultChecked={checked}
                              disabled={!canUpdate || (!checked && !holds.has(p))}
                              title={!checked && !holds.has(p) ? t('roles.matrix.not_held') : undefined}
                              aria-label={`${role.name}: ${groupLabel(g.group)}, ${verbLabel(g.group, p)}`}
                              className="h-5 w-5 rounded border-slate-300 text-primary-700 focus:ring-primary-600 disabled:opacity-40"
                            />
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
          {canUpdate ? (
            <div className="sticky bottom-0 z-20 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white px-4 py-3 sm:px-6">
              {saveError ? <p className="text-sm text-red-700">{m(saveError)}</p> : null}
              <Button type="submit" name="intent" value="save" disabled={busy}>
                {t('roles.matrix.save')}
              </Button>
            </div>
          ) : null}
        </AppForm>
      </Card>
      <p className="text-xs text-slate-500">
        <Link
          to={localePath(i18n.language, '/audit-trail?entity_type=role')}
          className="text-primary-800 hover:underline"
        >
          {t('roles.audit_link')}
        </Link>
      </p>
    </div>
  );
}

type RoleRow = Data['roles'][number];

function RoleActions({ role, family }: { role: RoleRow; family: string }) {
  const { t } = useTranslation();
  const answer = answerOf(useActionData<typeof privilegesAction>());
  const m = useMessage();
  const busy = useNavigation().state === 'submitting';
  const mine = (intent: string) =>
    answer?.intent === intent && answer.submission?.initialValue?.id === String(role.id) ? answer : null;
  const renamed = mine('rename');
  const deleted = mine('delete');
  return (
    <div className="flex flex-wrap items-start gap-2">
      <details className="group" open={!!renamed?.error || !!renamed?.submission?.error}>
        <summary className="cursor-pointer list-none rounded-md px-2 py-1 text-sm font-medium text-primary-800 ring-1 ring-slate-300 hover:bg-slate-50">
          {t('roles.list.rename')}
          <span className="sr-only">: {role.name}</span>
        </summary>
        <AppForm method="post" className="mt-2 flex flex-wrap items-end gap-2" preventScrollReset>
          <input type="hidden" name="id" value={role.id} />
          <input type="hidden" name="family" value={family} />
          <label className="sr-only" htmlFor={`rename-${role.id}`}>
            {t('roles.list.new_name', { name: role.name })}
          </label>
          <Input
            id={`rename-${role.id}`}
            name="title"
            defaultValue={role.name}
            maxLength={100}
            className="w-56"
          />
          <Button type="submit" name="intent" value="rename" variant="secondary" disabled={busy}>
            {t('roles.list.save_name')}
          </Button>
          <FormErrors
            errors={[
              ...(renamed?.submission?.error?.title ?? []),
              ...(renamed?.error && !renamed.submission?.error?.title ? [renamed.error] : []),
            ].map((e) => m(e))}
          />
        </AppForm>
      </details>
      {role.built_in ? null : role.users > 0 ? (
        <span className="px-2 py-1 text-xs text-slate-500">{t('roles.list.held_cannot_delete')}</span>
      ) : (
        <details open={!!deleted?.error}>
          <summary className="cursor-pointer list-none rounded-md px-2 py-1 text-sm font-medium text-red-700 ring-1 ring-slate-300 hover:bg-red-50">
            {t('roles.list.delete')}
            <span className="sr-only">: {role.name}</span>
          </summary>
          <AppForm method="post" className="mt-2 flex items-center gap-2" preventScrollReset>
            <input type="hidden" name="id" value={role.id} />
            <input type="hidden" name="family" value={family} />
            <span className="text-sm text-slate-700">
              {t('roles.list.delete_confirm', { name: role.name })}
            </span>
            <Button type="submit" name="intent" value="delete" variant="danger" disabled={busy}>
              {t('roles.list.delete')}
            </Button>
          </AppForm>
          {deleted?.error ? <FormErrors errors={[m(deleted.error)]} /> : null}
        </details>
      )}
    </div>
  );
}

function NewRole({
  family,
  roles,
  companies,
}: {
  family: string;
  roles: RoleRow[];
  companies: { id: string; name: string }[];
}) {
  const { t } = useTranslation();
  const answer = answerOf(useActionData<typeof privilegesAction>());
  const busy = useNavigation().state === 'submitting';
  const mine = answer?.intent === 'create' ? answer : null;
  // The server validates on submit (no schema in the browser); the page keys this form by the location so
  // it starts empty again after a submission, and its id stays the same (see docs/page-kit.md).
  const [form, fields] = useForm({
    id: `new-role-${family}`,
    lastResult: mine?.submission,
    defaultValue: { title: '', family, company_id: '', reference_role_id: '' },
    shouldValidate: 'onSubmit',
  });
  return (
    <details className="w-full sm:w-auto" open={!!mine}>
      <summary className="cursor-pointer list-none rounded-md bg-primary-700 px-3 py-1.5 text-center text-sm font-semibold text-white hover:bg-primary-800">
        {t('roles.create.open')}
      </summary>
      <AppForm
        method="post"
        {...getFormProps(form)}
        className="mt-3 grid gap-3 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200 sm:w-[28rem]"
      >
        <Field label={t('roles.create.title_field')} field={fields.title} />
        <SelectField
          label={t('roles.create.portal')}
          field={fields.family}
          options={(['company', 'school', 'student'] as const).map((f) => ({
            value: f,
            label: t(`roles.families.${f}`),
          }))}
        />
        <SelectField
          label={t('roles.create.company')}
          field={fields.company_id}
          placeholder={t('roles.list.all_companies')}
          options={companies.map((c) => ({ value: c.id, label: c.name }))}
        />
        <SelectField
          label={t('roles.create.reference')}
          field={fields.reference_role_id}
          placeholder={t('roles.create.no_reference')}
          hint={t('roles.create.reference_hint')}
          options={roles.map((r) => ({ value: String(r.id), label: r.name }))}
        />
        <FormErrors errors={form.errors} />
        <div>
          <Button type="submit" name="intent" value="create" disabled={busy}>
            {t('roles.create.submit')}
          </Button>
        </div>
      </AppForm>
    </details>
  );
}
