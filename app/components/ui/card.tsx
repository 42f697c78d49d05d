import type { ReactNode } from 'react';
import { FlowToast } from './snackbar';

/** A white panel. `flush` drops the padding for content that runs to the edges (lists, tables). */
export function Card({
  children,
  className = '',
  flush = false,
}: {
  children: ReactNode;
  className?: string;
  flush?: boolean;
}) {
  return (
    <section
      className={`rounded-xl bg-white shadow-sm ring-1 ring-slate-200 ${flush ? '' : 'p-6'} ${className}`}
    >
      {children}
    </section>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <>
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-3">{actions}</div> : null}
      </header>
      <FlowToast />
    </>
  );
}

export function Alert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'info' | 'success';
  children: ReactNode;
}) {
  const tones = {
    error: 'bg-red-50 text-red-800 ring-red-200',
    info: 'bg-primary-50 text-primary-900 ring-primary-200',
    success: 'bg-green-50 text-green-800 ring-green-200',
  };
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg px-4 py-3 text-sm ring-1 ${tones[tone]}`}
    >
      {children}
    </div>
  );
}
