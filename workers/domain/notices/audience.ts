/**
 * A notice's audience resolved to users: the active school users of the notice's company's active
 * clients that match every dimension the notice names (an empty dimension matches anyone). The campus
 * dimensions (campuses, countries, products) match when one campus the user works for matches them all:
 * their campuses, or every campus of the client when they may see them all. A product matches a campus
 * with an active contract for it.
 *
 * Every list is bound as one JSON array (json_each), so an audience of thousands of clients is one
 * statement and the recipients are written by INSERT ... SELECT, never value by value.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { NoticeAudience } from '../../../drizzle/schema';
import type { DB, Statement } from '../../platform/db';

function anyOf(list: readonly string[], expr: SQL): SQL {
  if (!list.length) return sql`1`;
  return sql`${expr} IN (SELECT value FROM json_each(${JSON.stringify(list)}))`;
}

/** `SELECT u.id FROM ...` of the users a notice of `companyId` with `audience` reaches. */
export function audienceUserIds(companyId: number, audience: NoticeAudience): SQL {
  const campusNamed = audience.campuses.length || audience.countries.length || audience.products.length;
  const campusMatch = campusNamed
    ? sql`EXISTS (
        SELECT 1 FROM campuses cp
        WHERE cp.client_id = u.client_id AND cp.status = 'active'
          AND (u.can_access_all_campuses = 1
               OR cp.id IN (SELECT uc.campus_id FROM user_campuses uc WHERE uc.user_id = u.id))
          AND ${anyOf(audience.campuses, sql`cp.public_id`)}
          AND ${
            audience.countries.length
              ? sql`cp.country_id IN (SELECT co.id FROM countries co WHERE ${anyOf(audience.countries, sql`co.abbreviation`)})`
              : sql`1`
          }
          AND ${
            audience.products.length
              ? sql`EXISTS (SELECT 1 FROM contracts k JOIN products p ON p.id = k.product_id
                     WHERE k.campus_id = cp.id AND k.status = 'active' AND ${anyOf(audience.products, sql`p.public_id`)})`
              : sql`1`
          })`
    : sql`1`;
  return sql`SELECT u.id FROM users u JOIN clients c ON c.id = u.client_id
    WHERE u.user_type = 'school' AND u.status = 'active' AND u.suspended = 0
      AND c.company_id = ${companyId} AND c.status = 'active'
      AND ${anyOf(audience.clients, sql`c.public_id`)}
      AND ${anyOf(audience.markets, sql`c.type`)}
      AND ${anyOf(audience.billing_types, sql`c.payment_terms`)}
      AND ${anyOf(audience.user_types, sql`u.member_type`)}
      AND ${campusMatch}`;
}

/**
 * Statements that make the notice's recipients its audience as it is now: users who no longer match
 * leave (with their acknowledgement), new ones join unacknowledged, the rest keep their state.
 */
export function syncRecipients(
  db: DB,
  noticeId: number,
  companyId: number,
  audience: NoticeAudience,
): Statement[] {
  const users = audienceUserIds(companyId, audience);
  return [
    db.run(sql`DELETE FROM notice_recipients WHERE notice_id = ${noticeId} AND user_id NOT IN (${users})`),
    db.run(sql`INSERT INTO notice_recipients (notice_id, user_id) SELECT ${noticeId}, m.id FROM (${users}) m WHERE 1
        ON CONFLICT (notice_id, user_id) DO NOTHING`),
  ];
}
