import { useLocation } from '@remix-run/react';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type MutableRefObject,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Toast } from '~/lib/actions';
import { useMessage } from '~/lib/messages';

export type SnackType = Toast['type'];
interface Snack {
  id: number;
  key: string;
  type: SnackType;
  text: string;
}

/** The message the page was served with, shown in the page's flow (see `FlowToast`). */
interface Served {
  toast: Toast | null;
  /** The location it belongs to: a later page does not show it. */
  locationKey: string;
  /** The `FlowToast` that shows it (the first one rendered), so a page never shows it twice. */
  slot: MutableRefObject<string | null>;
}

const SnackbarContext = createContext<(type: SnackType, text: string) => void>(() => {});
const ServedContext = createContext<Served | null>(null);

/** Snackbar messages (error, info, success), each shown for 3 seconds. */
export const SNACK_DURATION_MS = 3000;

/**
 * The page's messages. The message a page is served with (the flash toast of the last action, or the
 * toast an action answered with the page) sits in the page's flow under its heading (`FlowToast`), so it
 * shows and can be dismissed without JavaScript and never covers anything; messages that arrive while
 * the page runs (after a form sent by its scripts) float at the edge of the screen for a few seconds,
 * letting every click through.
 */
export function SnackbarProvider({ children, toast }: { children: ReactNode; toast?: Toast | null }) {
  const m = useMessage();
  const location = useLocation();
  const next = useRef(1);
  const [snacks, setSnacks] = useState<Snack[]>([]);
  const served = useRef<Served>({ toast: toast ?? null, locationKey: location.key, slot: { current: null } });
  const seenToast = useRef<string | null>(toast?.id ?? null);
  useEffect(() => {
    // Once the person has moved on, coming back (the browser's Back) does not show it again.
    if (location.key !== served.current.locationKey) served.current.toast = null;
  }, [location.key]);
  const show = useCallback((type: SnackType, text: string, key?: string) => {
    const id = next.current++;
    setSnacks((s) => [...s, { id, key: key ?? String(id), type, text }]);
    setTimeout(() => setSnacks((s) => s.filter((x) => x.id !== id)), SNACK_DURATION_MS);
  }, []);
  useEffect(() => {
    if (!toast || seenToast.current === toast.id) return;
    seenToast.current = toast.id;
    show(toast.type, m(toast.message), toast.id);
  }, [toast, show, m]);
  const colours: Record<SnackType, string> = {
    error: 'bg-red-700 text-white',
    info: 'bg-slate-800 text-white',
    success: 'bg-green-700 text-white',
  };
  return (
    <SnackbarContext.Provider value={show}>
      <ServedContext.Provider value={served.current}>{children}</ServedContext.Provider>
      {/* Under the top bar on a phone (the bottom holds the bulk bar and the keyboard), at the bottom on a
          wider screen; never a target for a click or a tap. */}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-20 z-[60] flex flex-col items-center gap-2 px-4 sm:bottom-4 sm:top-auto"
      >
        {snacks.map((s) => (
          <div
            key={s.key}
            role={s.type === 'error' ? 'alert' : 'status'}
            className={`max-w-xl rounded-lg px-4 py-3 text-sm font-medium shadow-lg ${colours[s.type]}`}
          >
            {s.text}
          </div>
        ))}
      </div>
    </SnackbarContext.Provider>
  );
}

const flowTones: Record<SnackType, string> = {
  error: 'bg-red-50 text-red-800 ring-red-200',
  info: 'bg-primary-50 text-primary-900 ring-primary-200',
  success: 'bg-green-50 text-green-800 ring-green-200',
};

/**
 * The message the page was served with, in the page's flow: placed under the page heading (`PageHeader`,
 * `AuthHeading`). A native disclosure dismisses it, so it closes without JavaScript too; it stays until
 * dismissed or the person moves to another page.
 */
export function FlowToast({ className = 'mb-6' }: { className?: string }) {
  const { t } = useTranslation();
  const m = useMessage();
  const served = useContext(ServedContext);
  const location = useLocation();
  const id = useId();
  if (!served?.toast || served.locationKey !== location.key) return null;
  // The first heading rendered takes the message (a page rendered twice over keeps the same one).
  served.slot.current ??= id;
  if (served.slot.current !== id) return null;
  const { type, message } = served.toast;
  return (
    <div aria-live="polite" className={className} data-testid="flow-toast">
      <details
        open
        className={`relative rounded-lg text-sm ring-1 [&:not([open])]:hidden ${flowTones[type]}`}
      >
        <summary
          className="absolute right-1 top-1 cursor-pointer list-none rounded p-2 leading-none hover:bg-black/5 [&::-webkit-details-marker]:hidden"
          data-testid="flow-toast-dismiss"
        >
          <span aria-hidden="true">×</span>
          <span className="sr-only">{t('shell.dismiss_message')}</span>
        </summary>
        <p role={type === 'error' ? 'alert' : 'status'} className="py-3 pl-4 pr-10 font-medium">
          {m(message)}
        </p>
      </details>
    </div>
  );
}

export function useSnackbar() {
  return useContext(SnackbarContext);
}

/** Shows a snack when an action answer arrives (each new answer object once). */
export function useActionSnack(answer: unknown, type: SnackType, text: string | null) {
  const show = useSnackbar();
  const seen = useRef<unknown>(null);
  useEffect(() => {
    if (answer && text && seen.current !== answer) {
      seen.current = answer;
      show(type, text);
    }
  }, [answer, type, text, show]);
}

/** Shows an action's error notice (ActionAnswer.error) as an error snack, once per answer. */
export function useAnswerError(answer: { error: string | null } | null | undefined) {
  const m = useMessage();
  useActionSnack(answer?.error ? answer : null, 'error', answer?.error ? m(answer.error) : null);
}
