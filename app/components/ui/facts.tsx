import type { ReactNode } from 'react';

export interface Fact {
  label: string;
  value: ReactNode;
  /** A test id on the value, for the few facts a browser test reads. */
  testId?: string;
}

/** The one facts list: label and value pairs of a read-only card, in a responsive grid; no value shows "—". */
export function Facts({ items }: { items: Fact[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item) => (
        <div key={item.label}>
          <dt className="text-slate-500">{item.label}</dt>
          <dd className="mt-0.5 font-medium text-slate-900" data-testid={item.testId}>
            {item.value === null || item.value === undefined || item.value === '' ? '—' : item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
