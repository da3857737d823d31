import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';

export type { Page };
export { expect };

const SCREENSHOT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

export const ADMIN = { userName: 'admin', passWord: 'admin123' };

/**
 * Collects uncaught page errors and console errors. A test that provokes an HTTP error on
 * purpose (wrong password, a faked 500, a refused delete) allows that one with `allow(...)`;
 * anything else fails the test.
 */
export class ConsoleGuard {
  readonly problems: string[] = [];
  private allowed: RegExp[] = [];

  constructor(page: Page) {
    page.on('pageerror', (error) => this.problems.push(`pageerror: ${error.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') this.problems.push(`console.error: ${msg.text()}`);
    });
  }

  /** Expected console errors, e.g. /status of 401/ for a deliberate wrong password. */
  allow(...patterns: RegExp[]): void {
    this.allowed.push(...patterns);
  }

  unexpected(): string[] {
    return this.problems.filter((p) => !this.allowed.some((re) => re.test(p)));
  }
}

export const test = base.extend<{ guard: ConsoleGuard }>({
  guard: [
    async ({ page }, use) => {
      const guard = new ConsoleGuard(page);
      await use(guard);
      expect(guard.unexpected(), 'no uncaught error or console error in the browser').toEqual([]);
    },
    { auto: true },
  ],
});

/** Saves a screenshot of a main screen to e2e/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForTimeout(250); // let transitions settle
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

interface Envelope<T> {
  code: string | number;
  message?: string;
  result: T;
}

/** A signed-in API client for test setup (the same calls the app makes). */
export class Api {
  constructor(
    private readonly request: APIRequestContext,
    readonly token: string,
  ) {}

  static async login(
    request: APIRequestContext,
    userName = ADMIN.userName,
    passWord = ADMIN.passWord,
  ): Promise<Api> {
    const res = await request.post('/api/v1/sso/login', { data: { userName, passWord, source: 'mes' } });
    const body = (await res.json()) as Envelope<{ token: string }>;
    if (body.code !== '200') throw new Error(`login ${userName} failed: ${body.code} ${body.message}`);
    return new Api(request, body.result.token);
  }

  private async call<T>(
    method: string,
    url: string,
    data?: unknown,
    params?: Record<string, string | number>,
  ) {
    const res = await this.request.fetch(url, {
      method,
      data,
      params,
      headers: { Authorization: `Bearer ${this.token}` },
    });
    const body = (await res.json()) as Envelope<T>;
    if (body.code !== '200') throw new Error(`${method} ${url} → ${body.code} ${body.message}`);
    return body.result;
  }

  get<T>(url: string, params?: Record<string, string | number>) {
    return this.call<T>('GET', url, undefined, params);
  }
  post<T>(url: string, data?: unknown) {
    return this.call<T>('POST', url, data);
  }
  put<T>(url: string, data?: unknown) {
    return this.call<T>('PUT', url, data);
  }
  delete<T>(url: string, data?: unknown) {
    return this.call<T>('DELETE', url, data);
  }
}

/** A unique suffix so reruns against the same database never collide. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 100)}`;
}

/** Signs in through the login page and waits until the app has left it. */
export async function signIn(
  page: Page,
  userName = ADMIN.userName,
  passWord = ADMIN.passWord,
): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.locator('#userName').fill(userName);
  await page.locator('#passWord').fill(passWord);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** The header token the web app keeps (the `Admin-Token` cookie is the server's, HttpOnly). */
export async function storeToken(page: Page, token: string): Promise<void> {
  if (!page.url().startsWith('http')) await page.goto('/login');
  await page.evaluate((t) => localStorage.setItem('Admin-Token', t), token);
}

/** Starts a page already signed in (token from an API login): faster than the form. */
export async function signedIn(page: Page, api: Api, path = '/home/info'): Promise<void> {
  await storeToken(page, api.token);
  await page.goto(path);
  await expect(page.getByTestId('top-menu')).toBeVisible();
}

/**
 * Clicks a button of the open confirmation dialog once its opening zoom has finished, and waits for
 * the dialog to close; a click lost during the zoom left the dialog open in CI, so it clicks again
 * (a button already loading ignores it).
 */
export async function confirmIn(page: Page, label: string | RegExp): Promise<void> {
  // antd spaces out two-character button labels (过 账): a plain label matches either way.
  const name = typeof label === 'string' ? new RegExp(`^${[...label].join('\\s*')}$`) : label;
  const dialog = page.locator('.ant-modal-confirm:visible').last();
  await expect(dialog).toBeVisible();
  await expect(page.locator('.ant-modal[class*="zoom-appear"], .ant-modal[class*="zoom-enter"]')).toHaveCount(
    0,
  );
  const button = dialog.getByRole('button', { name });
  for (let i = 0; i < 3; i++) {
    if (!(await button.isVisible())) return;
    await button.click();
    try {
      await expect(dialog).toBeHidden({ timeout: 5_000 });
      return;
    } catch {
      // still open: the click was lost, or the answer is slow (then the loading button ignores the next)
    }
  }
  await expect(dialog).toBeHidden();
}

/** Types a date into an antd date picker (`#id`) and confirms it with Enter. */
export async function date(page: Page, id: string, value: string): Promise<void> {
  await noOpenDropdown(page);
  const input = page.locator(`#${id}`);
  await input.click();
  await input.fill(value);
  await input.press('Enter');
}

/** The page of the active tab (inactive tabs stay mounted, hidden). */
export const activePage = (page: Page) => page.locator('.rm-page[data-active="true"]');
/**
 * The page of the active tab once it is the page at `path` (a pathname, or a pattern of one).
 * After a click that navigates, the address changes before the router has shown the new page: until
 * then the previous page is still the active one, and an element found in it (the same search
 * field on both) is then hidden but stays attached, so an action on it waits out its timeout.
 */
export async function pageAt(page: Page, path: string | RegExp) {
  const active = activePage(page);
  await expect(active).toHaveAttribute('data-page', path);
  return typeof path === 'string'
    ? page.locator(`.rm-page[data-active="true"][data-page="${path}"]`)
    : active;
}
export const rows = (page: Page) => activePage(page).locator('.ant-table-row');
export const topMenu = (page: Page) => page.getByTestId('top-menu');
export const sidebar = (page: Page) => page.getByTestId('sidebar');
export const tags = (page: Page) => page.getByTestId('tags-view').locator('.rm-tag');
/** The newest message with this text: the same action done twice in a row shows two for a few seconds. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('.ant-message-notice').filter({ hasText: text }).last();

/**
 * Waits until no select dropdown is showing. A closing dropdown stays visible through its leave
 * animation, so opening the next select at once would briefly show two and a locator could pick
 * the stale one; call this before opening a select after another was used.
 */
export async function noOpenDropdown(page: Page): Promise<void> {
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/** The select around input `id`: it shows the chosen option's label. */
const selectOf = (page: Page, id: string) =>
  page
    .locator(`#${id}`)
    .locator(`xpath=ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]`);

/**
 * Opens a select, picks the first option containing `text` and checks the select shows it; a
 * click that landed on a stale or re-rendered list (another option taken, or none) is made again.
 */
async function pickChecked(page: Page, id: string, text: string, open: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await noOpenDropdown(page);
    await open();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click();
    try {
      await expect(selectOf(page, id)).toContainText(text, { timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/**
 * Opens a select by its input id, types `typed` to search and picks the first option containing
 * `text`. The option list re-renders as the search answers, and a click can land on the option
 * that took the place of the one found; so the pick is checked on the select and, if another
 * option was taken, made again.
 */
export async function choose(page: Page, id: string, typed: string, text: string = typed): Promise<void> {
  const input = page.locator(`#${id}`);
  await pickChecked(page, id, text, async () => {
    await input.click();
    await input.fill(typed);
  });
}

/** Opens a select without search by its input id and picks the option `text`, checked like `choose`. */
export async function pick(page: Page, id: string, text: string): Promise<void> {
  await pickChecked(page, id, text, () => selectOf(page, id).click());
}
