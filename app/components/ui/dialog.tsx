import { Dialog as HDialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The shared dialog shell: title, close button, content and actions areas; 600 px wide by default.
 * Keyboard and screen-reader behaviour come from Headless UI.
 */
export function Dialog({
  open,
  onClose,
  title,
  children,
  actions,
  maxWidth = 600,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  maxWidth?: number;
}) {
  const { t } = useTranslation();
  return (
    <HDialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          style={{ maxWidth }}
          className="max-h-[90vh] w-full overflow-y-auto rounded-xl bg-white shadow-xl"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            <button
              type="button"
              onClick={onClose}
              className="-m-1 rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              aria-label={t('common.close')}
            >
              <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          </div>
          <div className="px-6 py-5">{children}</div>
          {actions ? (
            <div className="flex justify-end gap-3 border-t border-slate-200 px-6 py-4">{actions}</div>
          ) : null}
        </DialogPanel>
      </div>
    </HDialog>
  );
}
