/**
 * Runs before every browser test file. After each test: what the background axe checks found on the
 * pages that test loaded (axe.ts, watchAccessibility) fails that test, so does a raw translation key
 * on any of them (texts.ts, watchTexts), what the same checks found on pages shown without scripts
 * (plain.ts), and so does a saved session
 * that the test's first page found ended (browser.ts, signIn), when no visit() has said so already.
 */
import { afterEach } from 'vitest';
import { takeAccessibilityFailures } from './axe';
import { takeRefusedSessions } from './browser';
import { takeTextFailures } from './texts';
import { takePlainPageFailures } from './plain';

afterEach(async () => {
  const refused = takeRefusedSessions();
  const report = await takeAccessibilityFailures();
  const untranslated = await takeTextFailures();
  const plain = await takePlainPageFailures();
  if (refused) throw new Error(refused);
  if (untranslated)
    throw new Error(`Raw translation keys or unfilled placeholders on screen:\n${untranslated}`);
  if (plain) throw new Error(`Checks of pages without scripts:\n${plain}`);
  if (report) throw new Error(`Accessibility findings (WCAG 2.1 A/AA, serious or critical):\n${report}`);
});
