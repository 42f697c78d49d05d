import { useLocation } from '@remix-run/react';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The top bar's pop-ups (the account menu, the company list, the notifications panel, the language
 * list): a button and the panel it opens, with the keyboard and screen-reader behaviour of the WAI-ARIA
 * patterns (menu button, listbox, disclosure).
 *
 * Our own rather than Headless UI's Menu, Listbox and Popover: those bring a positioning library and their
 * own focus machinery, about 35 KB of gzipped JavaScript on every signed-in page, for four panels that
 * always open below their button (docs/performance.md, "Page weight").
 *
 * - `menu`: the panel is `role="menu"`; entries carry `role="menuitem"` (`popupItemProps`). Opening puts
 *   focus on the first entry; arrows, Home and End move it; choosing an entry closes the menu.
 * - `listbox`: the panel is `role="listbox"`; options carry `role="option"` and `aria-selected`. Opening
 *   focuses the selected option; Enter or Space chooses the focused one.
 * - `panel`: a disclosure (`aria-expanded` on the button); focus stays on the button.
 * In every kind Escape closes and returns focus to the button, and a click or focus outside or a
 * navigation closes. The panel exists only while open.
 */
export type PopupKind = 'menu' | 'listbox' | 'panel';

const ITEM: Record<PopupKind, string> = {
  menu: '[role="menuitem"]',
  listbox: '[role="option"]',
  panel: '',
};

export function Popup({
  kind,
  button,
  buttonClassName,
  panelClassName,
  panelLabel,
  onOpen,
  children,
  ...buttonAttrs
}: {
  kind: PopupKind;
  /** What the button shows. */
  button: ReactNode;
  buttonClassName: string;
  panelClassName: string;
  /** The panel's accessible name (menus and lists are named after their button otherwise). */
  panelLabel?: string;
  /** Called when the panel opens (the notifications mark themselves read). */
  onOpen?: () => void;
  /** The panel's content; `close` closes it (an option was chosen). */
  children: (close: () => void) => ReactNode;
  'aria-label'?: string;
  'data-testid'?: string;
  onKeyDown?: never;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  /** Where focus goes once the panel has rendered: an entry (menus, lists) or nowhere (panels). */
  const focusOnOpen = useRef<'first' | 'last' | 'selected' | null>(null);
  const buttonId = useId();
  const location = useLocation();

  // A link followed from the panel (client-side navigation keeps the top bar) closes it.
  useEffect(() => setOpen(false), [location.key]);
  const panelId = useId();

  const items = useCallback(
    () => (panel.current && ITEM[kind] ? [...panel.current.querySelectorAll<HTMLElement>(ITEM[kind])] : []),
    [kind],
  );

  const show = (focus: 'first' | 'last' | 'selected' | null) => {
    focusOnOpen.current = kind === 'panel' ? null : focus;
    setOpen(true);
    onOpen?.();
  };

  const close = useCallback((refocus = true) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const list = items();
    const where = focusOnOpen.current;
    if (where && list.length) {
      const selected = list.find((el) => el.getAttribute('aria-selected') === 'true');
      const target =
        where === 'last' ? list[list.length - 1] : where === 'selected' ? (selected ?? list[0]) : list[0];
      target.focus();
    }
    const outside = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open, items, close]);

  const onButtonKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (kind === 'panel') return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      show(e.key === 'ArrowUp' ? 'last' : kind === 'listbox' ? 'selected' : 'first');
    }
  };

  const onButtonClick = () => {
    if (open) return close(false);
    // A click, Enter or Space: focus goes into the menu (its first entry) or the list (its selected option).
    show(kind === 'listbox' ? 'selected' : 'first');
  };

  const onPanelKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (kind === 'panel') return;
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at < 0 ? list.length - 1 : at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Tab') setOpen(false);
    else if (kind === 'listbox' && (e.key === 'Enter' || e.key === ' ') && at >= 0) {
      e.preventDefault();
      list[at].click();
    }
  };

  const role = kind === 'panel' ? undefined : kind;
  return (
    <div
      ref={root}
      className="relative"
      onBlur={(e) => {
        if (e.relatedTarget && !root.current?.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        aria-haspopup={role}
        aria-controls={open ? panelId : undefined}
        onClick={onButtonClick}
        onKeyDown={onButtonKey}
        {...buttonAttrs}
      >
        {button}
      </button>
      {open ? (
        <div
          ref={panel}
          id={panelId}
          role={role}
          aria-label={panelLabel}
          aria-labelledby={panelLabel || !role ? undefined : buttonId}
          tabIndex={role ? -1 : undefined}
          className={panelClassName}
          onKeyDown={onPanelKey}
          onClick={(e) => {
            // Choosing an entry closes the menu (forms in it post themselves detached, see menu-form.ts).
            if (kind === 'menu' && (e.target as HTMLElement).closest(ITEM.menu)) setOpen(false);
          }}
        >
          {children(() => close())}
        </div>
      ) : null}
    </div>
  );
}

/** The props of an entry of a `menu` popup: out of the tab order, reached with the arrow keys. */
export const popupItemProps = { role: 'menuitem', tabIndex: -1 } as const;
