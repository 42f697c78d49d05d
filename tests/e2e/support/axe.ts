/**
 * axe-core on every page the browser tests visit (issue 8): WCAG 2.1 A and AA rules, and any serious or
 * critical finding fails the test with a report naming the rule, the elements and what is wrong.
 *
 * Two hooks make it run without any test asking for it:
 * - `hydrated()` (browser.ts) checks the page each time a test waits for a page to be ready, and throws
 *   at once, so the failure points at the step that showed the page;
 * - `watchAccessibility()` (called by `newPage()`) checks every document that loads, also those a test
 *   reaches by a plain `goto` or a click without waiting for hydration; what it finds is collected and
 *   thrown after the test by the setup file (accessibility-setup.ts).
 * A page is checked once per state: the same address with the same amount of elements and text is not
 * checked again.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface AccessibilityFinding {
  url: string;
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The last state checked per page, and a queue so two checks of one page never overlap. */
const checked = new WeakMap<Page, string>();
const queues = new WeakMap<Page, Promise<unknown>>();

function serialised<T>(page: Page, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(page) ?? Promise.resolve();
  const next = previous.then(task, task);
  queues.set(
    page,
    next.catch(() => undefined),
  );
  return next;
}

/**
 * Runs axe in the page and returns its serious and critical WCAG 2.1 A/AA findings, or null when this
 * state of the page was checked already. The script is evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern, and adds no element to the document.
 */
async function runAxe(page: Page): Promise<AccessibilityFinding[] | null> {
  const state = await page.evaluate(
    () => `${location.href}|${document.getElementsByTagName('*').length}|${document.body?.innerText.length}`,
  );
  if (checked.get(page) === state) return null;
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    (tags) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        // Experimental in axe, but exactly WCAG 2.5.3 (label in name), which issue 8 found broken.
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
        iframes: false,
      }),
    [...AXE_TAGS],
  )) as { violations: AxeResult[]; url: string };
  checked.set(page, state);
  return results.violations
    .filter((v) => v.impact && FAILING_IMPACTS.has(v.impact))
    .map((v) => ({
      url: results.url,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({
        target: n.target.map(String).join(' >> '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
}

/** A readable report: one block per rule, each element with axe's summary of what to fix. */
export function formatFindings(findings: AccessibilityFinding[]): string {
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`axe ${f.impact} ${f.rule} on ${f.url}: ${f.help} (${f.helpUrl})`);
    for (const n of f.nodes.slice(0, 10)) lines.push(`  - ${n.target}\n      ${n.summary}`);
    if (f.nodes.length > 10) lines.push(`  … and ${f.nodes.length - 10} more elements`);
  }
  return lines.join('\n');
}

/** The page disappeared or navigated while being checked: the next state is checked on its own. */
function isGone(e: unknown): boolean {
  return /Target .*closed|Execution context was destroyed|navigat|Frame was detached|has been closed/i.test(
    String(e),
  );
}

/** Checks the page as it is now; throws the report when axe finds anything serious or critical. */
export async function expectAccessible(page: Page): Promise<void> {
  const findings = await serialised(page, async () => {
    try {
      return await runAxe(page);
    } catch (e) {
      if (isGone(e)) return null;
      throw e;
    }
  });
  if (findings?.length) throw new Error(formatFindings(findings));
}

const pending = new Set<Promise<void>>();
const failures: string[] = [];

/** Checks every document the page loads, in the background; see takeAccessibilityFailures(). */
export function watchAccessibility(page: Page): void {
  page.on('load', () => {
    const check = serialised(page, async () => {
      try {
        const findings = await runAxe(page);
        if (findings?.length) failures.push(formatFindings(findings));
      } catch (e) {
        if (!isGone(e)) failures.push(`axe could not check ${page.url()}: ${String(e)}`);
      }
    });
    pending.add(check);
    void check.finally(() => pending.delete(check));
  });
}

/** Waits for the background checks and returns (and forgets) what they found, or null. */
export async function takeAccessibilityFailures(): Promise<string | null> {
  while (pending.size) await Promise.allSettled([...pending]);
  if (!failures.length) return null;
  const report = [...new Set(failures)].join('\n');
  failures.length = 0;
  return report;
}
