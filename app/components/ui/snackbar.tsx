import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

export type SnackType = 'error' | 'info' | 'success';
interface Snack {
  id: number;
  type: SnackType;
  text: string;
}

const SnackbarContext = createContext<(type: SnackType, text: string) => void>(() => {});

/** Snackbar messages (error, info, success), each shown for 3 seconds. */
export const SNACK_DURATION_MS = 3000;

export function SnackbarProvider({
  children,
  initial,
}: {
  children: ReactNode;
  initial?: { type: SnackType; text: string } | null;
}) {
  const [snacks, setSnacks] = useState<Snack[]>([]);
  const next = useRef(1);
  const show = useCallback((type: SnackType, text: string) => {
    const id = next.current++;
    setSnacks((s) => [...s, { id, type, text }]);
    setTimeout(() => setSnacks((s) => s.filter((x) => x.id !== id)), SNACK_DURATION_MS);
  }, []);
  useEffect(() => {
    if (initial?.text) show(initial.type, initial.text);
  }, [initial?.text, initial?.type, show]);
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
            key={s.id}
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
