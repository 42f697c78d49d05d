import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ClientStatus } from '@server/domain/clients/schema';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';

/** A client's status as a coloured pill. */
export function ClientStatusBadge({ status }: { status: ClientStatus | string }) {
  const { t } = useTranslation();
  return <StatusBadge tone={statusTone(status)}>{t(`clients.statuses.${status}`)}</StatusBadge>;
}

/** Tabs as links (the list tabs and the detail tabs): they work without JavaScript and keep history. */
export function LinkTabs({
  tabs,
  current,
  label,
}: {
  tabs: { key: string; label: string; href: string; count?: number }[];
  current: string;
  label: string;
}) {
  return (
    <nav aria-label={label} className="-mx-4 mb-6 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 border-b border-slate-200">
        {tabs.map((tab) => {
          const active = tab.key === current;
          return (
            <li key={tab.key}>
              <Link
                to={tab.href}
                preventScrollReset
                aria-current={active ? 'page' : undefined}
                data-tab={tab.key}
                className={`-mb-px inline-flex items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium ${
                  active
                    ? 'border-primary-700 text-primary-800'
                    : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
                }`}
              >
                {tab.label}
                {tab.count !== undefined ? (
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs ${active ? 'bg-primary-100 text-primary-800' : 'bg-slate-100 text-slate-600'}`}
                  >
                    {tab.count}
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
