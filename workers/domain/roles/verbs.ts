/** Pure and import-free, so the privileges page can label its rows without loading the permission lists. */

/**
 * How a permission is labelled inside its group on the matrix: the verb (read, create, ...) or, where the
 * name is not "<verb>_<group>", a key of its own (the reports, the policy views).
 */
export function permissionVerb(group: string, permission: string): string {
  // A report's permission is named by its report ("read_monthly_policy_report" → "monthly_policy").
  if (group === 'reports') return permission.replace(/^read_/, '').replace(/_report$/, '');
  const nouns = [group, group.replace(/s$/, '')];
  for (const noun of nouns) {
    if (permission.endsWith(`_${noun}`)) return permission.slice(0, -noun.length - 1);
  }
  return permission;
}
