/**
 * Who may archive a record of the configuration (and make it active again): the permission its service
 * asks, and the same question for the page that offers the button, so the two never differ. A country or
 * company may be archived by whoever may archive it or edit it; a product only with archive_product.
 */
import { canAny, type Actor } from './actor';

export const ARCHIVE_PERMISSION = {
  country: 'archive_country|update_country',
  company: 'archive_company|update_company',
  product: 'archive_product',
  notice: 'archive_notice|update_notice',
} as const;

export type Archivable = keyof typeof ARCHIVE_PERMISSION;

export function canArchive(actor: Actor | null | undefined, kind: Archivable): boolean {
  return canAny(actor, ARCHIVE_PERMISSION[kind]);
}
