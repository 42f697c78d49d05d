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
 * A page state is checked once per run, and a state is what axe judges, not the data it shows:
 * - the template: the routes Remix matched (`routes/($lang)._main.clients.$id`), so every client's page
 *   is one template; a page without scripts (the sign-in steps) by its path with ids blanked;
 * - the language and direction of the document: each language is its own state;
 * - the kinds of element outside list items (the frame): each kind is its tag and its parent's, its
 *   classes, inline style (lengths blanked), role, ARIA states, type and tabindex, whether the ids it
 *   points at are there (`for`, `aria-describedby`), whether its name-giving attributes (`aria-label`,
 *   `alt`, `title`) hold any text, whether a form control has a label, which other attributes it has,
 *   and whether it holds text of its own. So an open dialog or menu, a field marked invalid with its
 *   message, a control added or taken away, a label lost, a class changed: each makes a new state;
 * - the kinds of element inside list items (table body rows, list entries, options): a state whose frame
 *   passed before with each of these kinds is not new. So a list with other rows, more rows or fewer,
 *   is the same state; a row of a kind not seen on this frame (a status badge of another colour, an
 *   empty-list row) makes it new.
 * Never part of a state: texts, ids, links, figures, what is typed in a field, hidden inputs, scripts.
 * A state that passed is written to the run's folder, so no later test (or test file, in either shard)
 * showing it checks it again; one that failed is checked every time it shows. Before reading the state
 * the page comes to rest (settle()). Each check's time is profiled (profile.ts); E2E_AXE_STATES=<folder>
 * writes each state checked with its element kinds, to see why two states differ.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
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

/** A page state as axe judges it (see the top of this file). */
interface PageState {
  /** The routes Remix matched, or for a page without scripts its path with ids blanked. */
  template: string;
  /** The template, language, direction and the element kinds outside list items, as one key. */
  frame: string;
  /** The distinct element kinds inside list items (rows, entries, options), hashed. */
  items: string[];
  /** With E2E_AXE_STATES: every kind written out, to see why two states differ. */
  kinds: string[];
}

/**
 * Reads the page's state, in the page. An element's kind is what axe judges of it: its tag and its
 * parent's, its classes (Tailwind's colours and sizes) and inline style with lengths blanked, its role
 * and ARIA states, type, tabindex, language, whether each id it points at (a label's `for`,
 * `aria-describedby`) is there, whether its name-giving attributes (`aria-label`, `alt`, `title`,
 * `placeholder`) hold text, whether a form control has a label, which other attributes it has, and
 * whether it holds text of its own. Not the text, the ids, the links or the figures. Kinds are hashed
 * (FNV-1a); repeats count once.
 */
function pageState(listKinds: boolean): PageState | null {
  // Between two documents of a navigation there is no root element yet: that state is not a page.
  if (!document.documentElement) return null;
  /** Elements axe has no rule for, which Remix adds and removes as route modules load; hidden inputs are skipped too. */
  const UNSEEN = /^(SCRIPT|LINK|TEMPLATE)$/;
  /** Containers whose children are items of a list of data. */
  const LIST = /^(TBODY|UL|OL|SELECT|DATALIST)$/;
  const LIST_ROLE = /^(list|listbox|grid|treegrid|rowgroup|tree|feed)$/;
  /** Attributes axe judges by their value (digits blanked, apart from classes and style). */
  const AS_IS =
    /^(class|style|role|type|tabindex|disabled|hidden|inert|open|lang|dir|scope|autocomplete|aria-.*)$/;
  /** Attributes that point at other elements by id: whether every target is there. */
  const REFERENCE =
    /^(for|headers|list|form|aria-(labelledby|describedby|controls|owns|activedescendant|errormessage|details|flowto))$/;
  /** Attributes that are text for a person (a name, a description): whether there is any. */
  const TEXT =
    /^(alt|title|placeholder|label|aria-(label|description|roledescription|valuetext|placeholder|keyshortcuts))$/;
  const hash = (text: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const valueOf = (name: string, value: string): string => {
    if (name === 'class') return value.trim().split(/\s+/).sort().join(' ');
    if (REFERENCE.test(name))
      return value
        .trim()
        .split(/\s+/)
        .every((id) => document.getElementById(id))
        ? 'found'
        : 'missing';
    if (TEXT.test(name)) return value.trim() ? 'text' : 'empty';
    // A length (a bar's width) is data; a colour is not.
    if (name === 'style') return value.replace(/-?(\d*\.)?\d+(%|px|r?em|ch|v[wh]|fr|deg|m?s)\b/g, '0$2');
    return value.replace(/\d+/g, '0');
  };
  const frame = new Set<number>();
  const items = new Set<number>();
  const kinds: string[] = [];
  const walk = (el: Element, inItem: boolean) => {
    if (UNSEEN.test(el.tagName) || (el.tagName === 'INPUT' && (el as HTMLInputElement).type === 'hidden'))
      return;
    // What is typed in a field is data; the value of a button-like input is its name.
    const named = el.tagName === 'INPUT' && /^(submit|button|reset)$/.test((el as HTMLInputElement).type);
    let kind = `${el.parentElement?.tagName}>${el.tagName}`;
    for (const { name, value } of Array.from(el.attributes).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (name === 'value') kind += named ? ` value=${value.trim() ? 'text' : 'empty'}` : '';
      else if (AS_IS.test(name) || REFERENCE.test(name) || TEXT.test(name))
        kind += ` ${name}=${valueOf(name, value)}`;
      else kind += ` ${name}`;
    }
    const labels = (el as HTMLInputElement).labels;
    if (labels) kind += labels.length ? ' labelled' : ' unlabelled';
    for (const n of Array.from(el.childNodes)) {
      if (n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) {
        kind += ' text';
        break;
      }
    }
    const h = hash(kind);
    const set = inItem ? items : frame;
    if (listKinds && !set.has(h)) kinds.push(`${inItem ? 'item ' : ''}${kind}`);
    set.add(h);
    const list = LIST.test(el.tagName) || LIST_ROLE.test(el.getAttribute('role') ?? '');
    for (const child of Array.from(el.children)) walk(child, inItem || list);
  };
  walk(document.documentElement, false);
  let sum = 0;
  for (const h of frame) sum = (sum + h) % 0x1_0000_0000_0000;
  const router = (window as { __remixRouter?: { state: { matches: { route: { id: string } }[] } } })
    .__remixRouter;
  const template = router
    ? router.state.matches.map((m) => m.route.id).join(' > ')
    : location.pathname.replace(/\/[^/]*\d[^/]*/g, '/:id');
  const { lang, dir } = document.documentElement;
  return {
    template,
    frame: `${template}|${lang}|${dir || 'ltr'}|${frame.size}|${sum.toString(36)}`,
    items: [...items].map((h) => h.toString(36)),
    kinds,
  };
}

/**
 * Waits for the page to come to rest, so axe sees the state a person uses: a client-side navigation
 * under way (the page shows a loading bar over the old route) to end, at most 5 s; then, at most a
 * second, the CSS transitions and finite animations running to end (a button fading back from its
 * disabled opacity after a submit has, half-way, too little contrast). Endless animations (a spinner)
 * are not waited for.
 */
async function settle(): Promise<void> {
  const router = (window as { __remixRouter?: { state: { navigation: { state: string } } } }).__remixRouter;
  const navigationDeadline = Date.now() + 5_000;
  while (router && router.state.navigation.state !== 'idle' && Date.now() < navigationDeadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const finite = document
    .getAnimations()
    .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
  if (!finite.length) return;
  await Promise.race([
    Promise.all(finite.map((a) => a.finished.catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, 1_000)),
  ]);
}

/**
 * The run's record of the states that passed: a file per frame (named by its hash: a template of nested
 * routes is too long for a file name) listing the item kinds seen in it. global-setup.ts makes the
 * run's folder; both shards write to it.
 */
function passedFile(frame: string): string {
  const dir = join(inject('runDir'), 'axe-passed');
  mkdirSync(dir, { recursive: true });
  return join(dir, createHash('sha1').update(frame).digest('hex'));
}

/** Whether this state is one that passed: its frame passed, with each of its item kinds. */
function passedBefore(state: PageState): boolean {
  const file = passedFile(state.frame);
  if (!existsSync(file)) return false;
  const seen = new Set(readFileSync(file, 'utf8').split('\n'));
  return state.items.every((item) => seen.has(item));
}

function recordPassed(state: PageState): void {
  appendFileSync(passedFile(state.frame), state.items.map((item) => `${item}\n`).join(''));
}

/** With E2E_AXE_STATES=<folder>, each state checked is written there with its element kinds. */
const STATES_DIR = process.env.E2E_AXE_STATES;

/** Whether the page as it is now is a state that passed in this run, so expectAccessible() would not check it again. */
export async function checkedBefore(page: Page): Promise<boolean> {
  const state = await page.evaluate(pageState, false);
  return state !== null && passedBefore(state);
}

/**
 * Runs axe in the page and returns its serious and critical WCAG 2.1 A/AA findings, or null when this
 * state passed already in this run. The script is evaluated through the DevTools protocol, which the
 * page's Content-Security-Policy does not govern, and adds no element to the document.
 */
async function runAxe(page: Page): Promise<AccessibilityFinding[] | null> {
  const started = Date.now();
  await page.evaluate(settle);
  const state = await page.evaluate(pageState, Boolean(STATES_DIR));
  // The page is between documents; the next one is checked when it has loaded.
  if (state === null) return null;
  if (passedBefore(state)) {
    profile({ kind: 'axe (state seen before)', ms: Date.now() - started });
    return null;
  }
  if (STATES_DIR) {
    mkdirSync(STATES_DIR, { recursive: true });
    const name = `${Date.now()}-${basename(passedFile(state.frame))}`;
    writeFileSync(join(STATES_DIR, name), `${page.url()}\n${state.frame}\n${state.kinds.join('\n')}\n`);
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
  if (!findings.length) recordPassed(state);
  profile({ kind: 'axe (checked)', ms: Date.now() - started, template: state.template });
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
    // A blank page (a test between two sites, signIn() when done) is no page of the portal.
    if (!/^https?:/.test(page.url())) return;
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
