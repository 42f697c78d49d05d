/**
 * The units a product's term is counted in. A small fixed set, seeded into every region (demo seed and
 * reference data) and read by GET /api/company/units.
 */
export const DEFAULT_UNITS = [
  { name: 'day', days: 1 },
  { name: 'week', days: 7 },
  { name: 'month', days: 30 },
  { name: 'year', days: 365 },
] as const;
