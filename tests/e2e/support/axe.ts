/**
 * axe-core on every page the browser tests visit: WCAG 2.1 A and AA rules, and any serious or
 * critical finding fails the test with a report naming the rule, the elements and what is wrong.
 *
 * Two hooks make it run without any test asking for it:
 * - `hydrated()` (browser.ts) checks the page each time a test waits for a page to be ready, and throws
 *   at once, so the failure points at the step that showed the page;
 * - `watchAccessibility()` (called by `newPage()`) checks every document that loads once it has
 *   hydrated, also those a test reaches by a plain `goto` or a click without waiting for hydration; what
 *   it finds is collected and thrown after the test by the setup file (accessibility-setup.ts).
 *
 * A page state is checked once per run. Its fingerprint is the path (ids blanked), the language, and the
 * set of distinct elements as axe sees them: tag, classes, inline style, role, ARIA and form attributes
 * (numbers blanked), which other attributes are present, and whether it holds text of its own. Ten rows
 * of one table look like one row; a menu opened, an error shown, a row added of another kind, another
 * language, a class changed: each is a new state. A state that passed is written to the run's folder, so
 * the next test (or test file) showing the same state is not checked again; one that failed is checked
 * every time it shows. Each check's time is profiled (profile.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { profile } from './profile';
import { isHydrated } from './ready';

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

/** A queue per page, so two checks of one page never overlap. */
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
 * The page state's fingerprint (see the top of this file), hashed in the page: FNV-1a of each distinct
 * element's signature, summed, so the order of elements does not matter and repeats count once.
 */
function fingerprint(): string | null {
  // Between two documents of a navigation there is no root element yet: that state is not a page.
  if (!document.documentElement) return null;
  const blank = (v: string) => v.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, '#').replace(/\d+/g, '0');
  const KEPT = /^(class|style|role|type|alt|tabindex|disabled|hidden|open|lang|scope|aria-.*)$/;
  const hash = (text: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const seen = new Set<number>();
  for (const el of Array.from(document.getElementsByTagName('*'))) {
    let sig = `${el.parentElement?.tagName}>${el.tagName}`;
    for (const a of Array.from(el.attributes))
      sig += KEPT.test(a.name) ? ` ${a.name}=${blank(a.value)}` : ` ${a.name}`;
    for (const n of Array.from(el.childNodes)) {
      if (n.nodeType === 3 && n.textContent!.trim()) {
        sig += ' text';
        break;
      }
    }
    seen.add(hash(sig));
  }
  let sum = 0;
  for (const h of seen) sum = (sum + h) % 0x1_0000_0000_0000;
  return `${blank(location.pathname)}|${document.documentElement.lang}|${seen.size}|${sum.toString(36)}`;
}

/**
 * Waits (at most a second) for the CSS transitions and finite animations running now to end, so axe sees
 * the state at rest: a button fading back from its disabled opacity after a submit has, half-way, too
 * little contrast. Endless animations (a spinner) are not waited for.
 */
function settleTransitions(): Promise<unknown> {
  const finite = document
    .getAnimations()
    .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
  if (!finite.length) return Promise.resolve();
  return Promise.race([
    Promise.all(finite.map((a) => a.finished.catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, 1_000)),
  ]);
}

/** The run's record of the states that passed (one empty file per state; global-setup.ts makes the folder). */
function passedFile(state: string): string {
  const dir = join(inject('runDir'), 'axe-passed');
  mkdirSync(dir, { recursive: true });
  return join(dir, encodeURIComponent(state));
}

/**
 * Runs axe in the page and returns its serious and critical WCAG 2.1 A/AA findings, or null when this
 * state passed already in this run. The script is evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern, and adds no element to the document.
 */
async function runAxe(page: Page): Promise<AccessibilityFinding[] | null> {
  const started = Date.now();
  await page.evaluate(settleTransitions);
  const state = await page.evaluate(fingerprint);
  // The page is between documents; the next one is checked when it has loaded.
  if (state === null) return null;
  const passed = passedFile(state);
  if (existsSync(passed)) {
    profile({ kind: 'axe (state seen before)', ms: Date.now() - started });
    return null;
  }
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    (tags) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (window as any).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        // Experimental in axe, but exactly WCAG 2.5.3 (label in name): a control's name must hold its visible text.
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
        iframes: false,
      }),
    [...AXE_TAGS],
  )) as { violations: AxeResult[]; url: string };
  const findings = results.violations
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
  if (!findings.length) writeFileSync(passed, '');
  profile({ kind: 'axe (checked)', ms: Date.now() - started });
  return findings;
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

/**
 * Checks every document the page loads, in the background, once it has hydrated (see
 * takeAccessibilityFailures()). Checking at `load` would run axe in the page's one thread while React
 * hydrates, slowing the test, and check a state the person never uses; a test that waits for the page
 * itself (`hydrated()`) usually gets there first, and this check then finds the state passed.
 */
export function watchAccessibility(page: Page): void {
  page.on('load', () => {
    const check = (async () => {
      try {
        await page.waitForFunction(isHydrated, undefined, { timeout: 15_000 });
      } catch (e) {
        if (isGone(e)) return; // the test went on to another page: that one is checked in turn
      }
      await serialised(page, async () => {
        try {
          const findings = await runAxe(page);
          if (findings?.length) failures.push(formatFindings(findings));
        } catch (e) {
          if (!isGone(e)) failures.push(`axe could not check ${page.url()}: ${String(e)}`);
        }
      });
    })();
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
