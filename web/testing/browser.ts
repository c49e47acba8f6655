/**
 * The browser side of the page tests: Debian's Chromium driven by playwright-core (the slow tier builds
 * each page first when its inputs changed: scripts/web/build-for-tests.ts), console errors and policy violations collected, and an axe-core check.
 */
import diagnostics_channel from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // WebGL through the software rasteriser, for the map canvas.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

export interface Watched {
  page: Page;
  /** Console errors and uncaught exceptions, including Content-Security-Policy violations. */
  errors: string[];
}

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
  /** Requests to hosts other than 127.0.0.1 are refused (tests never touch the network); listed here. */
  offsite?: string[];
}

export async function openPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<Watched & { context: BrowserContext }> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    serviceWorkers: 'allow',
  });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => {
    options.offsite?.push(route.request().url());
    return route.abort();
  });
  // A wait is for an element or an answer; its limit only stops a journey that hangs (two busy cores).
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, errors };
}

/**
 * How this process's server answered the next request for `path`: what the browser asked for by itself,
 * such as the page's icon (`/favicon.ico`), which Playwright does not report as the page's request. The
 * servers under test run in this process; Node's `http.server.response.finish` channel sees each answer.
 */
export function nextAnswerTo(path: string): Promise<{ status: number; type: string }> {
  return new Promise((resolve) => {
    const onFinish = (message: unknown) => {
      const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
      if (request.url !== path) return;
      diagnostics_channel.unsubscribe('http.server.response.finish', onFinish);
      resolve({ status: response.statusCode, type: String(response.getHeader('content-type') ?? '') });
    };
    diagnostics_channel.subscribe('http.server.response.finish', onFinish);
  });
}

/**
 * A page in a context that routes nothing: Chromium asks for a page's icon (`/favicon.ico`) by itself only
 * then (under `openPage`'s routing for offsite requests it never does). Console errors are collected.
 */
export async function openUnroutedPage(browser: Browser): Promise<Watched & { context: BrowserContext }> {
  const context = await browser.newContext();
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  return { context, page, errors };
}

/** Console lines that report a policy violation (a script, style or connection the policy blocked). */
export const policyViolations = (errors: string[]) =>
  errors.filter((line) => /Content Security Policy|Refused to/i.test(line));

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core in the page (through the debugging protocol, so the page's policy is untouched). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global the evaluated source just defined.
    const axe = (window as any).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    // biome-ignore lint/suspicious/noExplicitAny: axe's result objects.
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // biome-ignore lint/suspicious/noExplicitAny: axe's node objects.
      nodes: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')),
    }));
  });
  return (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The computed outline of the element holding keyboard focus (a visible ring is wider than 0). */
export async function focusOutline(page: Page): Promise<{ tag: string; width: number; style: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return { tag: '', width: 0, style: 'none' };
    const css = getComputedStyle(el);
    return { tag: el.tagName, width: Number.parseFloat(css.outlineWidth) || 0, style: css.outlineStyle };
  });
}
