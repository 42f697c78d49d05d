/**
 * The billing address an invoice keeps (invoices.billing_address): a snapshot of the client's or the
 * campus's billing address as it was at issue, so an issued invoice never changes when the address does.
 * NULL when none was set (the invoice page says 'Billing address has not been specified.').
 */
import { sql, type SQL } from 'drizzle-orm';

/**
 * SQL for the snapshot of the billing address of `ownerType` whose id is `ownerId` (SQL or a number),
 * named `name` (SQL: the client's or campus's name); NULL without an address line or city.
 */
export function billingAddressSnapshot(
  ownerType: 'client' | 'campus',
  ownerId: SQL | number,
  name: SQL,
): SQL {
  return sql`(SELECT json_object('name', ${name}, 'department', a.department, 'address', a.address,
      'address2', a.address2, 'city', a.city, 'province', a.province, 'postal_code', a.postal_code,
      'country', co.name)
    FROM addresses a LEFT JOIN countries co ON co.id = a.country_id
    WHERE a.owner_type = ${ownerType} AND a.owner_id = ${ownerId} AND a.kind = 'billing'
      AND (coalesce(a.address, '') <> '' OR coalesce(a.city, '') <> ''))`;
}
