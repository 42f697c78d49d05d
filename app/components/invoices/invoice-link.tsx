import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';

/** The page of an invoice or credit note: under its client, where every list and tab links to it. */
export function invoicePath(clientId: string, invoiceId: string): string {
  return `/clients/${clientId}/invoices/${invoiceId}`;
}

/**
 * An invoice or credit note number, wherever it appears (lists, statements, receivables, transactions,
 * reconciliation): always a link to its page, in the reader's language. `href` for a page of its own
 * (a campus's view of the invoice); `children` to say more inside the link (the document's type).
 */
export function InvoiceLink({
  number,
  clientId,
  invoiceId,
  href,
  className = 'font-mono text-xs font-semibold text-primary-800 hover:underline',
  children,
}: {
  number: string;
  clientId?: string;
  invoiceId?: string;
  href?: string;
  className?: string;
  children?: ReactNode;
}) {
  const { i18n } = useTranslation();
  const to = href ?? (clientId && invoiceId ? invoicePath(clientId, invoiceId) : null);
  if (!to) return <span className={className}>{number}</span>;
  return (
    <Link to={localePath(i18n.language, to)} className={`break-words ${className}`}>
      {number}
      {children}
    </Link>
  );
}
