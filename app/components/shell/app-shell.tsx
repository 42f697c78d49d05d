import { Link, useLocation } from '@remix-run/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';
import { headerIcons } from '~/lib/navigation';
import { useRootData } from '~/root';
import { AccountMenu } from './account-menu';
import { CompanySwitcher } from './company-switcher';
import { Footer, Watermark } from './footer';
import { Icon, Logo, type IconName } from './icons';
import { LanguageSwitcher } from './language-switcher';
import { Badge, NotificationsMenu, badgeText } from './notifications-menu';
import { SideMenu } from './side-menu';
import { SupportBanner } from './support-banner';
import { ConfirmStep } from '~/components/ui/confirm';

/** Where the skip link takes keyboard users: the page's own content, past the top bar and the menu. */
export const MAIN_ID = 'main-content';

const DRAWER_TITLE_ID = 'drawer-title';

/**
 * The phone drawer: a native modal dialog (`showModal`), so the page behind it is inert, focus stays in
 * it, and Escape or a tap on the backdrop closes it. Headless UI's Dialog did the same with about 15 KB
 * of JavaScript on every signed-in page.
 */
function Drawer({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    // Focus goes back where it was (the menu button) once the drawer is gone and the page no longer inert.
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = '';
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role="dialog"
      aria-modal="true"
      aria-labelledby={DRAWER_TITLE_ID}
      className="fixed inset-y-0 left-0 z-40 m-0 flex h-full max-h-none w-[275px] max-w-[85vw] flex-col bg-white p-0 shadow-xl backdrop:bg-slate-900/50 lg:hidden"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {children}
    </dialog>
  );
}

/**
 * A top-bar icon linking to a page, with a badge counting what waits there (the cart, the message
 * centre). Its name for screen readers says the count; the focus ring is the dark bar's (app.css).
 */
function IconLink(p: { to: string; icon: IconName; label: string; count: number; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <Link
      to={localePath(i18n.language, p.to)}
      className="relative rounded-full p-2 hover:bg-white/10"
      aria-label={p.label}
      data-testid={p.testId}
    >
      <Icon name={p.icon} />
      {p.count > 0 ? <Badge count={p.count} /> : null}
    </Link>
  );
}

/**
 * The application shell: a skip link, top bar, side menu (a modal drawer on small screens), content and
 * footer.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const { user, cartCount, unreadMessages, confirmation } = useRootData();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [sidebarOpen, setSidebarOpen] = useState(true);
  const [wide, setWide] = useState<boolean | null>(null);
  const location = useLocation();
  useEffect(() => setDrawerOpen(false), [location.pathname]);
  useEffect(() => {
    const query = window.matchMedia('(min-width: 1024px)');
    const update = () => setWide(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  if (!user) return null;
  const icons = headerIcons(user.permissions);
  const closeDrawer = () => setDrawerOpen(false);
  const toggle = () => {
    if (window.matchMedia('(min-width: 1024px)').matches) setSidebarOpen((o) => !o);
    else setDrawerOpen((o) => !o);
  };
  return (
    <div className="flex min-h-full flex-col">
      <a
        href={`#${MAIN_ID}`}
        className="sr-only z-50 rounded-lg bg-white text-sm font-semibold text-primary-800 shadow-lg focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:px-4 focus:py-2"
        data-testid="skip-link"
      >
        {t('shell.skip_to_content')}
      </a>
      {/* The support banner and the top bar stay in view together while the page scrolls. */}
      <div className="sticky top-0 z-30">
        <SupportBanner />
        <header
          className="flex h-16 items-center gap-2 bg-primary-800 px-2 text-white shadow sm:gap-3 sm:px-4"
          data-tone="dark"
        >
          <button
            type="button"
            onClick={toggle}
            className="rounded-lg p-2 hover:bg-white/10"
            aria-label={t('shell.toggle_menu')}
            aria-expanded={wide === false ? drawerOpen : sidebarOpen}
            data-testid="menu-toggle"
          >
            <Icon name="menu" />
          </button>
          <Link to={localePath(i18n.language, '/')} className="flex shrink-0 items-center gap-2 rounded-lg">
            <Logo className="h-8 w-8" />
            <span className="sr-only text-lg font-bold tracking-tight xl:not-sr-only">{t('app.name')}</span>
          </Link>
          <div className="ml-1 min-w-0 flex-1 sm:ml-4">
            <CompanySwitcher />
          </div>
          <div className="flex items-center gap-0.5 sm:gap-1">
            {icons.cart ? (
              <IconLink
                to="/cart"
                icon="cart"
                label={t('shell.cart', { shown: badgeText(cartCount) })}
                count={cartCount}
                testId="cart-icon"
              />
            ) : null}
            {icons.mail ? (
              <IconLink
                to="/message-centre"
                icon="mail"
                label={t('shell.messages', { shown: badgeText(unreadMessages) })}
                count={unreadMessages}
                testId="mail-icon"
              />
            ) : null}
            <NotificationsMenu />
            <div className="hidden sm:block">
              <LanguageSwitcher />
            </div>
            <div className="ml-1 hidden lg:block">
              <AccountMenu />
            </div>
          </div>
        </header>
      </div>
      <div className="flex flex-1">
        {sidebarOpen ? (
          <aside className="sticky top-[calc(4rem+var(--support-banner-h,0px))] hidden h-[calc(100vh-4rem-var(--support-banner-h,0px))] w-[275px] shrink-0 border-r border-slate-200 bg-white lg:block">
            <SideMenu />
          </aside>
        ) : null}
        {drawerOpen ? (
          <Drawer onClose={closeDrawer}>
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
              <h2 id={DRAWER_TITLE_ID} className="min-w-0 text-sm font-semibold leading-tight">
                {t('app.name')}
              </h2>
              <div className="flex items-center gap-2">
                <LanguageSwitcher tone="light" />
                <button
                  type="button"
                  onClick={closeDrawer}
                  className="rounded p-1 hover:bg-slate-100"
                  aria-label={t('common.close')}
                  data-testid="drawer-close"
                >
                  <Icon name="close" className="h-5 w-5" />
                </button>
              </div>
            </div>
            <div className="min-h-0 flex-1">
              <SideMenu />
            </div>
          </Drawer>
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col">
          <main
            id={MAIN_ID}
            tabIndex={-1}
            className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8"
          >
            {/* A form that asks before acting, posted without JavaScript: its question is this page's step. */}
            {confirmation ? <ConfirmStep confirmation={confirmation} /> : children}
          </main>
          <Footer />
        </div>
      </div>
      <Watermark />
    </div>
  );
}
