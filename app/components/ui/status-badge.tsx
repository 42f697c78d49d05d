import type { ReactNode } from 'react';

const tones = {
  green: 'bg-green-50 text-green-800 ring-green-600/20',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  red: 'bg-red-50 text-red-800 ring-red-600/20',
  blue: 'bg-primary-50 text-primary-800 ring-primary-600/20',
} as const;

/** A small coloured pill for a record's status ("Active", "Archived"); the caller gives the label. */
export function StatusBadge({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** The tone of the common record statuses. */
export function statusTone(status: string): keyof typeof tones {
  if (status === 'active') return 'green';
  if (status === 'archived' || status === 'inactive') return 'slate';
  if (status === 'declined' || status === 'suspended') return 'red';
  return 'amber';
}
