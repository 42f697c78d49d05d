import type { MouseEvent, ReactNode } from 'react';

/**
 * Keeps a mouse press on a link or button from taking focus away from the field being typed in. The
 * auth forms validate on blur: without this, the error list that appears on blur pushes the link down
 * between press and release, and the click is lost.
 */
export function keepFocus(event: MouseEvent) {
  if ((event.target as Element).closest('a, button')) event.preventDefault();
}

/** The secondary links and buttons under an auth form ("send a new pin", "back"...). */
export function AuthActions({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <div onMouseDown={keepFocus} className={`mt-4 flex flex-wrap justify-between gap-2 text-sm ${className}`}>
      {children}
    </div>
  );
}
