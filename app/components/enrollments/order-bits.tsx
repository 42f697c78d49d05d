import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';

export type OrderStep = 'add' | 'fees' | 'group_leader' | 'review';
const STEPS: { key: OrderStep; path: string }[] = [
  { key: 'add', path: '/insureds/new/add' },
  { key: 'fees', path: '/insureds/new/fees' },
  { key: 'group_leader', path: '/insureds/new/group-leader' },
  { key: 'review', path: '/insureds/new/review' },
];

/** The steps of ordering one by one, each a link for the same batch; the current one marked. */
export function OrderSteps({ current, batchId }: { current: OrderStep; batchId: string }) {
  const { t, i18n } = useTranslation();
  const index = STEPS.findIndex((s) => s.key === current);
  return (
    <nav aria-label={t('order.steps.label')} className="mb-6">
      <ol className="flex flex-wrap gap-2 text-sm">
        {STEPS.map((s, i) => {
          const state = i < index ? 'done' : i === index ? 'current' : 'next';
          return (
            <li key={s.key} className="flex items-center gap-2">
              <Link
                to={localePath(i18n.language, `${s.path}?batch=${batchId}`)}
                aria-current={state === 'current' ? 'step' : undefined}
                className={`flex items-center gap-2 rounded-full px-3 py-1.5 font-medium ring-1 ring-inset ${
                  state === 'current'
                    ? 'bg-primary-800 text-white ring-primary-800'
                    : state === 'done'
                      ? 'bg-primary-50 text-primary-900 ring-primary-200 hover:bg-primary-100'
                      : 'bg-white text-slate-600 ring-slate-300 hover:bg-slate-50'
                }`}
              >
                <span
                  className={`flex h-5 w-5 items-center justify-center rounded-full text-xs ${
                    state === 'current' ? 'bg-white/20' : 'bg-slate-900/5'
                  }`}
                >
                  {i + 1}
                </span>
                {t(`order.steps.${s.key}`)}
              </Link>
              {i < STEPS.length - 1 ? (
                <span aria-hidden="true" className="text-slate-300">
                  ›
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
