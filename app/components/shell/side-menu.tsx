import { Link, NavLink, useLocation } from '@remix-run/react';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath, splitLocale } from '~/i18n/config';
import {
  activeMenuLink,
  APP_VERSION,
  BUILT_PAGES,
  isGroup,
  visibleMenu,
  type MenuLink,
} from '~/lib/navigation';
import { useRootData } from '~/root';
import { Icon } from './icons';
import { DrawerAccount } from './account-menu';

function Item({ link, active, nested = false }: { link: MenuLink; active: boolean; nested?: boolean }) {
  const { t, i18n } = useTranslation();
  const label = t(`nav.${link.key}`);
  const pad = nested ? 'pl-9 pr-3' : 'px-3';
  if (!BUILT_PAGES.has(link.to)) {
    return (
      <li>
        <span
          aria-disabled="true"
          title={t('nav.coming_soon')}
          data-menu-item={link.key}
          className={`flex items-center justify-between gap-2 rounded-lg ${pad} py-2 text-sm text-slate-500`}
        >
          <span className="truncate">{label}</span>
          <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-slate-600">
            {t('nav.soon')}
          </span>
        </span>
      </li>
    );
  }
  return (
    <li>
      <Link
        to={localePath(i18n.language, link.to)}
        data-menu-item={link.key}
        aria-current={active ? 'page' : undefined}
        className={`block truncate rounded-lg ${pad} py-2 text-sm font-medium ${active ? 'bg-primary-50 text-primary-800' : 'text-slate-700 hover:bg-slate-100'}`}
      >
        {label}
      </Link>
    </li>
  );
}

/** A group of the side menu: a disclosure button and the links under it. */
function MenuGroup({
  groupKey,
  label,
  defaultOpen,
  children,
}: {
  groupKey: string;
  label: string;
  defaultOpen: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const panelId = useId();
  return (
    <>
      <button
        type="button"
        data-menu-group={groupKey}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center justify-between rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100"
      >
        {label}
        <Icon name="chevron" className={`h-4 w-4 transition ${open ? 'rotate-180' : ''}`} />
      </button>
      <ul id={panelId} hidden={!open} className="mt-1 space-y-1">
        {children}
      </ul>
    </>
  );
}

/** The side menu, gated by the user's permissions (spec 000 s.6). */
export function SideMenu() {
  const { t, i18n } = useTranslation();
  const { user } = useRootData();
  const location = useLocation();
  const current = splitLocale(location.pathname).path;
  if (!user) return null;
  const menu = visibleMenu(user.permissions);
  // One entry is highlighted: the most specific link holding the page (a prefix match would light two).
  const active = activeMenuLink(current, menu);
  return (
    <nav aria-label={t('shell.main_menu')} className="flex h-full flex-col">
      <DrawerAccount />
      <ul className="flex-1 space-y-1 overflow-y-auto p-3" data-testid="side-menu">
        {menu.map((entry) =>
          isGroup(entry) ? (
            <li key={entry.key}>
              <MenuGroup
                groupKey={entry.key}
                label={t(`nav.${entry.key}`)}
                defaultOpen={entry.children.some((c) => c.to === active)}
              >
                {entry.children.map((c) => (
                  <Item key={c.key} link={c} active={c.to === active} nested />
                ))}
              </MenuGroup>
            </li>
          ) : (
            <Item key={entry.key} link={entry} active={entry.to === active} />
          ),
        )}
      </ul>
      <div className="border-t border-slate-200 px-6 py-3">
        <NavLink
          to={localePath(i18n.language, '/release-notes')}
          className="text-xs font-medium text-slate-500 hover:text-primary-700"
        >
          {APP_VERSION}
        </NavLink>
      </div>
    </nav>
  );
}
