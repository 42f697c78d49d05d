/**
 * Days as a person types them into a date field: DD/MM/YYYY, the form every page writes
 * (docs/decisions/platform.md, "One date format"). The tests keep days as YYYY-MM-DD for the API and
 * the database, and type them this way.
 */

/** A stored day (YYYY-MM-DD) as typed: 2027-03-27 → 27/03/2027. */
export const typed = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
