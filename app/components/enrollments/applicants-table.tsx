import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { EnrollmentView } from '@server/domain/enrollments/queries';

/** An enrollment as a loader sends it (dates as text). */
export type EnrollmentRowView = Omit<EnrollmentView, 'created_at'>;
import { msg } from '@server/domain/messages';
import { AppForm } from '~/components/fields';
import { StatusBadge } from '~/components/ui/status-badge';
import { useMessage } from '~/lib/messages';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { ConfirmButton } from '~/components/ui/confirm';

/** An applicant's problems as readable lines: "First name: Name has invalid characters". */
export function EnrollmentErrors({ errors }: { errors: EnrollmentRowView['errors'] }) {
  const { t } = useTranslation();
  const m = useMessage();
  if (!errors.length) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-red-700">
      {errors.map((e, i) => (
        <li key={i}>
          {e.field !== 'row' ? `${t(`order.fields.${e.field}`, { defaultValue: e.field })}: ` : ''}
          {m(msg(e.message, e.params))}
        </li>
      ))}
    </ul>
  );
}

/** Cells stack into a card per applicant on phones and are table cells from `sm` up. */
const cell = 'block px-4 py-1 sm:table-cell sm:py-3';

/** A cell's column name, shown before its value only where the cells stack (phones). */
export function PhoneLabel({ children }: { children: string }) {
  return <span className="mr-2 text-xs font-medium text-slate-500 sm:hidden">{children}:</span>;
}

/**
 * The applicants of an order: name and type, birth date, trip, destination, links, fee and whether
 * each is ready. With `editPath`, each row has Edit (a link to the add page's edit form) and Delete (a
 * form posting `intent=delete`).
 */
export function ApplicantsTable({
  rows,
  editPath,
  caption,
}: {
  rows: readonly EnrollmentRowView[];
  editPath?: (id: string) => string;
  caption: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="sm:overflow-x-auto">
      <table className="block min-w-full text-sm sm:table sm:divide-y sm:divide-slate-200">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 sm:table-header-group">
          <tr>
            <th scope="col" className="px-4 py-3">
              {t('order.table.name')}
            </th>
            <th scope="col" className="whitespace-nowrap px-4 py-3">
              {t('order.table.date_of_birth')}
            </th>
            <th scope="col" className="px-4 py-3">
              {t('order.table.trip')}
            </th>
            <th scope="col" className="px-4 py-3">
              {t('order.table.links')}
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              {t('order.table.total')}
            </th>
            <th scope="col" className="px-4 py-3">
              {t('order.table.errors')}
            </th>
            {editPath ? (
              <th scope="col" className="px-4 py-3">
                <span className="sr-only">{t('order.table.actions')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-100 sm:table-row-group">
          {rows.map((r) => (
            <tr key={r.id} data-testid="applicant-row" className="block py-2 align-top sm:table-row sm:py-0">
              <td className={cell}>
                <div className="min-w-[8rem] font-medium text-slate-900">{r.full_name ?? '—'}</div>
                <div className="text-xs text-slate-500">{t(`order.types.${r.type}`)}</div>
              </td>
              <td className={`${cell} whitespace-nowrap text-slate-700`}>
                <PhoneLabel>{t('order.table.date_of_birth')}</PhoneLabel>
                {britishDate(r.date_of_birth)}
              </td>
              <td className={`${cell} text-slate-700`}>
                <PhoneLabel>{t('order.table.trip')}</PhoneLabel>
                <div className="inline whitespace-nowrap sm:block">
                  {britishDate(r.start_date)} – {britishDate(r.end_date)}
                </div>
                <div className="ml-2 inline text-xs text-slate-500 sm:ml-0 sm:block">
                  {r.destination_country ?? ''}
                </div>
              </td>
              <td className={`${cell} text-xs text-slate-600 empty:hidden sm:empty:table-cell`}>
                {r.dependency_name ? (
                  <div>{t('order.table.travels_with', { name: r.dependency_name })}</div>
                ) : null}
                {r.group_leader_name ? (
                  <div>{t('order.table.leader', { name: r.group_leader_name })}</div>
                ) : null}
              </td>
              <td className={`${cell} whitespace-nowrap tabular-nums text-slate-900 sm:text-right`}>
                <PhoneLabel>{t('order.table.total')}</PhoneLabel>
                {r.fee ? formatMinor(r.fee.total_minor, r.fee.currency) : '—'}
              </td>
              <td className={cell}>
                {r.error_count ? (
                  <>
                    <StatusBadge tone="red">
                      {t('order.table.error_count', { count: r.error_count })}
                    </StatusBadge>
                    <EnrollmentErrors errors={r.errors} />
                  </>
                ) : (
                  <StatusBadge tone="green">{t('order.table.ok')}</StatusBadge>
                )}
              </td>
              {editPath ? (
                <td className={`${cell} whitespace-nowrap sm:text-right`}>
                  <div className="flex gap-4 sm:justify-end sm:gap-3">
                    <Link
                      to={editPath(r.id)}
                      preventScrollReset
                      className="font-semibold text-primary-800 hover:underline"
                      aria-label={`${t('order.table.edit')} ${r.full_name ?? ''}`}
                    >
                      {t('order.table.edit')}
                    </Link>
                    <AppForm method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="enrollment_id" value={r.id} />
                      <ConfirmButton
                        className="font-semibold text-red-700 hover:underline"
                        aria-label={`${t('order.table.delete')} ${r.full_name ?? ''}`}
                        question={t('order.add.delete_confirm', { name: r.full_name ?? '' })}
                      >
                        {t('order.table.delete')}
                      </ConfirmButton>
                    </AppForm>
                  </div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
