/**
 * Runs before every browser test file: after each test, what the background axe checks found on the
 * pages that test loaded (axe.ts, watchAccessibility) fails that test.
 */
import { afterEach } from 'vitest';
import { takeAccessibilityFailures } from './axe';

afterEach(async () => {
  const report = await takeAccessibilityFailures();
  if (report) throw new Error(`Accessibility findings (WCAG 2.1 A/AA, serious or critical):\n${report}`);
});
