import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localePath } from '~/i18n/config';

/** The page of an invoice or credit note: under its client, where every list and tab links to it. */
export function invoicePath(clientId: string, invoiceId: string): string {
  return `/clients/${clientId}/invoices/${invoiceId}`;
}

/** The address of an invoice known only by its number: it leads on to invoicePath (or the 404 page). */
export function invoiceNumberPath(number: string): string {
  return `/invoices/by-number/${encodeURIComponent(number)}`;
}

/** How the number reads: in a table's cell, as a value of its own (a fact), beside other text. */
const LOOKS = {
  table: 'font-mono text-xs font-semibold text-primary-800 hover:underline',
  value: 'font-mono font-semibold text-primary-800 hover:underline',
  // Beside other text a link is underlined, not told by its colour alone (WCAG 1.4.1).
  inline: 'font-medium text-primary-800 underline underline-offset-2 hover:text-primary-700',
};

/**
 * An invoice or credit note number, wherever it appears (lists, statements, receivables, transactions,
 * reconciliation, payment and amendment pages, logs): always a link to its page, in the reader's
 * language. The page is `href` (a campus's view of the invoice), else the client's page of
 * `clientId`/`invoiceId` (or of `invoice`), else the address by number (a reference that holds only the number).
 * `children` say more inside the link (the document's type); `sentence` is a text that names the number
 * (`t('payments.edit.intro', { number })`): it is shown whole, with the number as the link. `variant`
 * says how it reads where it stands: a table's cell by default, `value` for a number on its own line,
 * `inline` beside other text (as in a sentence).
 */
export function InvoiceLink({
  invoice,
  number = invoice?.number ?? '',
  clientId = invoice?.client.id,
  invoiceId = invoice?.id,
  href,
  variant = 'table',
  className,
  sentence,
  children,
}: {
  /** The document as a page's data has it: its number, id and client (instead of the three below). */
  invoice?: { id: string; number: string; client: { id: string } };
  number?: string;
  clientId?: string;
  invoiceId?: string;
  href?: string;
  variant?: keyof typeof LOOKS;
  className?: string;
  sentence?: string;
  children?: ReactNode;
}) {
  const { i18n } = useTranslation();
  if (!number) return <>{sentence}</>;
  const to = href ?? (clientId && invoiceId ? invoicePath(clientId, invoiceId) : invoiceNumberPath(number));
  const look = className ?? LOOKS[sentence ? 'inline' : variant];
  const link = (
    <Link to={localePath(i18n.language, to)} className={`break-words ${look}`}>
      {number}
      {children}
    </Link>
  );
  if (!sentence) return link;
  const at = sentence.indexOf(number);
  if (at < 0) return <>{sentence}</>;
  return (
    <>
      {sentence.slice(0, at)}
      {link}
      {sentence.slice(at + number.length)}
    </>
  );
}
