import { useState } from 'react';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AppForm, ErrorList, FormErrors, Label, inputClass } from '~/components/fields';
import { Button } from '~/components/ui/button';

export interface GroupLeaderOption {
  id: string;
  name: string;
}
export interface GroupLeaderMember {
  id: string;
  name: string;
  type: string;
  group_leader_name: string | null;
}
export interface GroupLeaderErrors {
  group_leader_id?: string[];
  enrollment_ids?: string[];
  form?: string[];
}

/**
 * Assigns a group leader of the order to selected applicants (`policies/group-leader/update`
 * semantics; choosing "No group leader" removes it). Posts `intent=group_leader`, `group_leader_id` and
 * `enrollment_ids` (one per ticked applicant) to the page's own action; the one-by-one and the
 * spreadsheet flows both handle it with `groupLeaderAction` (app/lib/enrollments.server.ts). Works
 * without JavaScript (the boxes are plain checkboxes); "Select all" needs it.
 */
export function GroupLeaderForm({
  leaders,
  members,
  errors,
  hidden = {},
}: {
  leaders: readonly GroupLeaderOption[];
  members: readonly GroupLeaderMember[];
  errors?: GroupLeaderErrors | null;
  /** Extra fields the page's action needs (the batch id, for example). */
  hidden?: Record<string, string | undefined>;
}) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const [ticked, setTicked] = useState<string[]>([]);
  if (!leaders.length) return <p className="text-sm text-slate-600">{t('order.group_leader.none')}</p>;
  if (!members.length) return <p className="text-sm text-slate-600">{t('order.group_leader.no_members')}</p>;
  const all = ticked.length === members.length;
  return (
    <AppForm method="post" className="space-y-5" preventScrollReset>
      <input type="hidden" name="intent" value="group_leader" />
      {Object.entries(hidden).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      <FormErrors errors={errors?.form} />
      <div className="max-w-md">
        <Label htmlFor="group-leader-id">{t('order.group_leader.leader')}</Label>
        <select
          id="group-leader-id"
          name="group_leader_id"
          className={inputClass}
          defaultValue={leaders[0]!.id}
          aria-invalid={errors?.group_leader_id?.length ? true : undefined}
        >
          {leaders.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
          <option value="">{t('order.group_leader.no_leader')}</option>
        </select>
        <ErrorList errors={errors?.group_leader_id} />
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700">{t('order.group_leader.members')}</legend>
        <label className="mb-2 flex items-center gap-3 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300 text-primary-700"
            checked={all}
            onChange={() => setTicked(all ? [] : members.map((m) => m.id))}
          />
          {t('order.group_leader.select_all')}
        </label>
        <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {members.map((m) => (
            <li key={m.id}>
              <label className="flex cursor-pointer items-start gap-3 px-3 py-2.5 text-sm hover:bg-slate-50">
                <input
                  type="checkbox"
                  name="enrollment_ids"
                  value={m.id}
                  className="mt-0.5 h-4 w-4 rounded border-slate-300 text-primary-700"
                  checked={ticked.includes(m.id)}
                  onChange={() =>
                    setTicked((s) => (s.includes(m.id) ? s.filter((x) => x !== m.id) : [...s, m.id]))
                  }
                />
                <span className="min-w-0">
                  <span className="font-medium text-slate-900">{m.name}</span>
                  <span className="ml-2 text-xs text-slate-500">{t(`order.types.${m.type}`)}</span>
                  {m.group_leader_name ? (
                    <span className="block text-xs text-slate-500">
                      {t('order.group_leader.current', { name: m.group_leader_name })}
                    </span>
                  ) : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
        <ErrorList errors={errors?.enrollment_ids} />
      </fieldset>
      <Button type="submit" disabled={busy}>
        {t('order.group_leader.submit')}
      </Button>
    </AppForm>
  );
}
