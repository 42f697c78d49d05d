import { Link, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { localePath, splitLocale } from '~/i18n/config';
import { useRootData } from '~/root';
import { postDetached } from '~/components/ui/menu-form';
import { Popup, popupItemProps } from '~/components/ui/popup';
import { MY_DOCUMENTS_PERMISSION } from '@server/domain/documents/values';
import { Icon } from './icons';

/** Replaces each id-like segment with a placeholder and trims after the first one (spec 000 s.7). */
export function handoverPath(pathname: string): string {
  const { path } = splitLocale(pathname);
  const parts = path.split('/').filter(Boolean);
  const out: string[] = [];
  for (const part of parts) {
    if (/\d/.test(part) && part.length >= 6) {
      out.push(':id');
      break;
    }
    out.push(part);
  }
  return `/${out.join('/')}`;
}

/** Inside the avatar menu a control is a menu entry; in the drawer it is a plain control. */
type InMenu = { className: string; menu?: boolean };

function RegionSwitch({ className, menu }: InMenu) {
  const { t } = useTranslation();
  const { user, csrfToken } = useRootData();
  const location = useLocation();
  if (!user?.other_region) return null;
  return (
    <form method="post" action="/actions/handover">
      <input type="hidden" name="_csrf" value={csrfToken} />
      <input type="hidden" name="path" value={handoverPath(location.pathname).split('/:id')[0] || '/home'} />
      <button type="submit" className={className} onClick={postDetached} {...(menu ? popupItemProps : {})}>
        <Icon name="switch" className="h-5 w-5 text-slate-500" />
        {user.other_region === 'ie' ? t('shell.go_to_ireland') : t('shell.go_to_uk')}
      </button>
    </form>
  );
}

function LogoutButton({ className, menu }: InMenu) {
  const { t } = useTranslation();
  const { csrfToken } = useRootData();
  const { i18n } = useTranslation();
  return (
    <form method="post" action={localePath(i18n.language, '/auth/logout')}>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <button type="submit" className={className} onClick={postDetached} {...(menu ? popupItemProps : {})}>
        <Icon name="logout" className="h-5 w-5 text-slate-500" />
        {t('shell.logout')}
      </button>
    </form>
  );
}

const itemClass =
  'flex w-full items-center gap-3 px-4 py-2.5 text-left text-sm text-slate-700 hover:bg-primary-50 focus:bg-primary-50 focus:outline-none';

/** My Documents (spec 000 s.2, "My Documents"): the user's own files, for holders of the document permission. */
function MyDocumentsLink({ className, menu }: InMenu) {
  const { t, i18n } = useTranslation();
  const { user } = useRootData();
  if (!user?.permissions.includes(MY_DOCUMENTS_PERMISSION)) return null;
  return (
    <Link
      to={localePath(i18n.language, '/documents')}
      className={className}
      {...(menu ? popupItemProps : {})}
    >
      <Icon name="document" className="h-5 w-5 text-slate-500" />
      {t('shell.my_documents')}
    </Link>
  );
}

/**
 * The avatar menu: initials; region switch (when the user holds a token for it), account details, My
 * Documents, logout.
 */
export function AccountMenu() {
  const { t, i18n } = useTranslation();
  const { user } = useRootData();
  if (!user) return null;
  return (
    <Popup
      kind="menu"
      buttonClassName="flex h-9 w-9 items-center justify-center rounded-full bg-white text-sm font-bold text-primary-800 ring-2 ring-white/30 hover:ring-white"
      aria-label={`${t('shell.account_menu')}: ${user.initials}`}
      data-testid="avatar"
      button={user.initials}
      panelLabel={t('shell.account_menu')}
      panelClassName="absolute right-0 top-full z-50 mt-2 w-64 rounded-xl bg-white py-1 text-left shadow-xl ring-1 ring-black/10 focus:outline-none"
    >
      {() => (
        <>
          <div className="border-b border-slate-100 px-4 py-3">
            <p className="truncate text-sm font-semibold text-slate-900">
              {user.first_name} {user.last_name}
            </p>
            <p className="truncate text-xs text-slate-500">{user.email}</p>
          </div>
          {user.other_region ? <RegionSwitch className={itemClass} menu /> : null}
          <Link to={localePath(i18n.language, '/account-details')} className={itemClass} {...popupItemProps}>
            <Icon name="user" className="h-5 w-5 text-slate-500" />
            {t('shell.account_details')}
          </Link>
          <MyDocumentsLink className={itemClass} menu />
          <LogoutButton className={itemClass} menu />
        </>
      )}
    </Popup>
  );
}

/** The same controls, laid out flat for the drawer on small screens. */
export function DrawerAccount() {
  const { t, i18n } = useTranslation();
  const { user } = useRootData();
  if (!user) return null;
  const cls = 'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm text-slate-700 hover:bg-slate-100';
  return (
    <div className="border-b border-slate-200 p-3 lg:hidden" data-testid="drawer-account">
      <div className="mb-2 flex items-center gap-3 px-3">
        <span className="flex h-9 w-9 items-center justify-center rounded-full bg-primary-800 text-sm font-bold text-white">
          {user.initials}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold">
            {user.first_name} {user.last_name}
          </p>
          <p className="truncate text-xs text-slate-500">{user.email}</p>
        </div>
      </div>
      <RegionSwitch className={cls} />
      <Link to={localePath(i18n.language, '/account-details')} className={cls}>
        <Icon name="user" className="h-5 w-5 text-slate-500" />
        {t('shell.account_details')}
      </Link>
      <MyDocumentsLink className={cls} />
      <LogoutButton className={cls} />
    </div>
  );
}
