import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Toast } from '~/lib/actions';
import { useMessage } from '~/lib/messages';

export type SnackType = Toast['type'];
interface Snack {
  id: number;
  key: string;
  type: SnackType;
  text: string;
}

const SnackbarContext = createContext<(type: SnackType, text: string) => void>(() => {});

/** Snackbar messages (error, info, success), each shown for 3 seconds. */
export const SNACK_DURATION_MS = 3000;

export function SnackbarProvider({ children, toast }: { children: ReactNode; toast?: Toast | null }) {
  const m = useMessage();
  const next = useRef(1);
  // The flash toast of the last action is in the first render, so it shows without JavaScript too.
  const [snacks, setSnacks] = useState<Snack[]>(() =>
    toast ? [{ id: 0, key: toast.id, type: toast.type, text: m(toast.message) }] : [],
  );
  const seenToast = useRef<string | null>(toast?.id ?? null);
  const dismissLater = useCallback((id: number) => {
    setTimeout(() => setSnacks((s) => s.filter((x) => x.id !== id)), SNACK_DURATION_MS);
  }, []);
  const show = useCallback(
    (type: SnackType, text: string, key?: string) => {
      const id = next.current++;
      setSnacks((s) => [...s, { id, key: key ?? String(id), type, text }]);
      dismissLater(id);
    },
    [dismissLater],
  );
  useEffect(() => {
    if (snacks.some((s) => s.id === 0)) dismissLater(0);
    // only once, for the toast of the first render
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] flex flex-col items-center gap-2 px-4"
      >
        {snacks.map((s) => (
          <div
            key={s.key}
            role={s.type === 'error' ? 'alert' : 'status'}
            className={`pointer-events-auto rounded-lg px-4 py-3 text-sm font-medium shadow-lg ${colours[s.type]}`}
          >
            {s.text}
          </div>
        ))}
      </div>
    </SnackbarContext.Provider>
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
