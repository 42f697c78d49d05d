import { NavLink, useLocation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RouteTab {
  /** Stable name of the tab (`data-tab`, tests). */
  key: string;
  label: string;
  /** The tab's own address (a nested route). */
  to: string;
  /** The default tab, at the page's own address: active only there, not on the other tabs' addresses. */
  index?: boolean;
  count?: number;
}

/**
 * The tab bar of a detail page whose tabs are nested routes (docs/page-kit.md, "Tabbed detail pages").
 * Tabs are links, so they work without JavaScript, keep history and mark the open one
 * `aria-current="page"`. When they do not fit (a phone, or many tabs at 1366 px) the bar scrolls
 * sideways: the open tab is scrolled into view, a fade and an arrow button show on each side where
 * more tabs are hidden, and the bar says how many.
 */
export function RouteTabs({ tabs, label }: { tabs: RouteTab[]; label: string }) {
  const { t } = useTranslation();
  const strip = useRef<HTMLUListElement>(null);
  const [hidden, setHidden] = useState({ before: 0, after: 0 });
  const { pathname } = useLocation();

  const measure = useCallback(() => {
    const el = strip.current;
    if (!el) return;
    const box = el.getBoundingClientRect();
    let before = 0;
    let after = 0;
    for (const item of Array.from(el.children)) {
      const r = item.getBoundingClientRect();
      if (r.left < box.left - 1) before++;
      else if (r.right > box.right + 1) after++;
    }
    setHidden((h) => (h.before === before && h.after === after ? h : { before, after }));
  }, []);

  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    const active = el.querySelector<HTMLElement>('[aria-current="page"]');
    if (active) {
      const item = active.parentElement as HTMLElement;
      const left = item.offsetLeft - el.offsetLeft;
      if (left < el.scrollLeft || left + item.offsetWidth > el.scrollLeft + el.clientWidth) {
        el.scrollLeft = left - (el.clientWidth - item.offsetWidth) / 2;
      }
    }
    measure();
  }, [pathname, measure]);

  useEffect(() => {
    const el = strip.current;
    if (!el) return;
    el.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [measure]);

  const scroll = (direction: 1 | -1) => {
    const el = strip.current;
    if (el) el.scrollBy({ left: direction * el.clientWidth * 0.7, behavior: 'smooth' });
  };
  const arrow =
    'absolute inset-y-0 z-10 flex w-10 items-center bg-gradient-to-r text-slate-600 hover:text-primary-800';

  return (
    <nav aria-label={label} className="relative -mx-4 mb-6 border-b border-slate-200 sm:mx-0">
      <ul ref={strip} className="flex scroll-px-10 gap-1 overflow-x-auto px-4 [scrollbar-width:thin] sm:px-0">
        {tabs.map((tab) => (
          <li key={tab.key} className="shrink-0">
            <NavLink
              to={tab.to}
              end={tab.index}
              prefetch="intent"
              preventScrollReset
              data-tab={tab.key}
              className={({ isActive }) =>
                `-mb-px inline-flex items-center gap-2 whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-primary-600 ${
                  isActive
                    ? 'border-primary-700 text-primary-800'
                    : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
                }`
              }
            >
              {({ isActive }) => (
                <>
                  {tab.label}
                  {tab.count !== undefined ? (
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs ${isActive ? 'bg-primary-100 text-primary-800' : 'bg-slate-100 text-slate-600'}`}
                    >
                      {tab.count}
                    </span>
                  ) : null}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
      {/* Keyboard users reach every tab with Tab (focus scrolls the strip); the arrows are for pointers. */}
      {hidden.before > 0 ? (
        <button
          type="button"
          tabIndex={-1}
          onClick={() => scroll(-1)}
          data-testid="tabs-more-before"
          aria-label={t('common.tabs.more_before', { count: hidden.before })}
          title={t('common.tabs.more_before', { count: hidden.before })}
          className={`${arrow} left-0 justify-start from-white via-white/90 to-transparent pl-1`}
        >
          <Chevron direction="left" />
        </button>
      ) : null}
      {hidden.after > 0 ? (
        <button
          type="button"
          tabIndex={-1}
          onClick={() => scroll(1)}
          data-testid="tabs-more-after"
          aria-label={t('common.tabs.more_after', { count: hidden.after })}
          title={t('common.tabs.more_after', { count: hidden.after })}
          className={`${arrow} right-0 justify-end from-transparent via-white/90 to-white pr-1`}
        >
          <Chevron direction="right" />
        </button>
      ) : null}
    </nav>
  );
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
      <path
        fillRule="evenodd"
        d={
          direction === 'right'
            ? 'M7.2 14.8a.75.75 0 0 1 0-1.06L10.94 10 7.2 6.26a.75.75 0 1 1 1.06-1.06l4.27 4.27a.75.75 0 0 1 0 1.06L8.26 14.8a.75.75 0 0 1-1.06 0Z'
            : 'M12.8 5.2a.75.75 0 0 1 0 1.06L9.06 10l3.74 3.74a.75.75 0 1 1-1.06 1.06L7.47 10.53a.75.75 0 0 1 0-1.06l4.27-4.27a.75.75 0 0 1 1.06 0Z'
        }
        clipRule="evenodd"
      />
    </svg>
  );
}
