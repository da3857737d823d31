import {
  Api,
  activePage,
  expect,
  type Page,
  rows,
  shot,
  signedIn,
  signIn,
  storeToken,
  test,
  toast,
  topMenu,
} from './support.ts';

/** Holds `getUserByToken` a second; answers whether it has been let through. */
async function holdUserInfo(page: Page): Promise<() => boolean> {
  let answered = false;
  await page.route('**/api/v1/sso/getUserByToken*', async (route) => {
    await new Promise((r) => setTimeout(r, 1000));
    await route.continue();
    answered = true;
  });
  return () => answered;
}

test.describe('sign-in and session', () => {
  test('signs in with a trimmed user name and opens the digital cockpit', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?redirect=%2F$/);
    await expect(page.getByRole('heading', { name: '账号登录' })).toBeVisible();
    await expect(page).toHaveTitle(/登录/);
    await shot(page, '01-login');

    const started = Date.now();
    await signIn(page, '  admin  ', 'admin123');
    await expect(page).toHaveURL(/\/sale-manage\/sale-order$/);
    await expect(activePage(page).locator('.ant-table')).toBeVisible();
    console.log(`sign-in to a rendered page: ${Date.now() - started} ms`);
    await expect(page.locator('.rm-brand-title')).toHaveText('RingMES 轴承制造管理系统');
    await expect(page).toHaveTitle('销售订单 - RingMES');
    await expect(page.getByTestId('breadcrumb')).toContainText('销售管理');
    await shot(page, '02-cockpit-module-page');
  });

  test('keeps the intended path through the login', async ({ page }) => {
    await page.goto('/system/role/manage');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2Frole%2Fmanage/);
    await signIn(page);
    await expect(page).toHaveURL(/\/system\/role\/manage$/);
    await expect(rows(page).first()).toBeVisible();
  });

  test('signing in straight to a list asks for its first page once, alongside the user', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/v1/material-info/page') asked.push(url.search);
    });
    // The user's menu answers a second late: the list cannot draw before it, its data can be asked.
    const userAnswered = await holdUserInfo(page);
    await page.goto('/login?redirect=%2Ffactory-info%2Fmaterial-manage%2Fmaterial-list');
    await signIn(page);
    await expect.poll(() => asked.length).toBe(1);
    expect(userAnswered()).toBe(false);
    expect(new URLSearchParams(asked[0]).get('pageNum')).toBe('1');
    await expect(page).toHaveURL(/\/material-list$/);
    await expect(rows(page).first()).toBeVisible();
    // The list found the page under its own key: no second request for it.
    expect(asked).toHaveLength(1);
  });

  test('a dashboard opened with a session asks for its snapshot once, alongside the user', async ({
    page,
    request,
  }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/v1/dashboard/snapshot') asked.push(url.searchParams.get('scope') ?? '');
    });
    const userAnswered = await holdUserInfo(page);
    await storeToken(page, (await Api.login(request)).token);
    await page.goto('/workshop-dashboard/machine-dashboard');
    await expect.poll(() => asked.length).toBe(1);
    expect(userAnswered()).toBe(false);
    expect(asked[0]).toBe('machine');
    await expect(activePage(page).getByTestId('kpi-good')).toBeVisible();
    // The page read it under its own key: no second snapshot.
    expect(asked).toHaveLength(1);
  });

  test('visiting /login while signed in continues into the app', async ({ page }) => {
    await signIn(page);
    await page.goto('/login?redirect=%2Fsystem%2Fdepartment%2Fmanage');
    await expect(page).toHaveURL(/\/system\/department\/manage$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/sale-manage\/sale-order$/);
  });

  test('a wrong password shows the Chinese message and the form stays usable', async ({ page, guard }) => {
    guard.allow(/status of 401/);
    await page.goto('/login');
    // Empty fields: both named inline; each message goes once its field is filled (leading spaces dropped).
    await page.locator('button[type=submit]').click();
    await expect(page.locator('.rm-login-card').getByText('请输入用户名')).toBeVisible();
    await expect(page.locator('.rm-login-card').getByText('请输入密码')).toBeVisible();
    await shot(page, '02-login-required');
    await page.locator('#userName').fill('  qc01');
    await expect(page.locator('#userName')).toHaveValue('qc01');
    await expect(page.locator('.rm-login-card').getByText('请输入用户名')).toHaveCount(0);
    await page.locator('#passWord').fill('wrong-password');
    await expect(page.locator('.rm-login-card').getByText('请输入密码')).toHaveCount(0);
    await page.locator('button[type=submit]').click();
    await expect(page.getByTestId('login-error')).toContainText('用户名或密码错误');
    await expect(toast(page, '用户名或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await shot(page, '03-login-wrong-password');
    await page.locator('#passWord').fill('demo123');
    await page.locator('button[type=submit]').click();
    await expect(topMenu(page)).toBeVisible();
  });

  test('too many attempts show the rate-limit message', async ({ page, guard }) => {
    guard.allow(/status of 401/, /status of 429/);
    await page.goto('/login');
    // A name no other test signs in with: the limit it reaches holds for this address for the
    // whole window, and the flows running beside this one sign in as the demo users.
    await page.locator('#userName').fill('ratelimit-probe');
    let lastCode = '';
    for (let i = 0; i < 8 && lastCode !== '429'; i += 1) {
      await page.locator('#passWord').fill(`wrong-${i}`);
      const answer = page.waitForResponse('**/api/v1/sso/login');
      await page.locator('button[type=submit]').click();
      const body = await (await answer).json();
      lastCode = String(body.code);
      await expect(page.getByTestId('login-error')).toContainText(body.message);
    }
    expect(lastCode).toBe('429');
    await expect(page).toHaveURL(/\/login/);
  });

  test('an invalid token: verification failed, token cleared, back to login', async ({ page, guard }) => {
    guard.allow(/status of 401/);
    await storeToken(page, 'not-a-real-token');
    await page.goto('/system/user/manage');
    await expect(toast(page, 'Verification failed, please Login again.')).toBeVisible();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2Fuser%2Fmanage/);
    expect(await page.evaluate(() => localStorage.getItem('Admin-Token'))).toBeNull();
  });

  test('an expired session (code 407) shows the message once and logs out after 2 s', async ({
    page,
    request,
    guard,
  }) => {
    guard.allow(/status of 401/);
    const api = await Api.login(request, 'fin01', 'demo123');
    await signedIn(page, api);
    // The session ends on the server (logout from elsewhere); the next calls answer 407.
    await api.post('/vue-element-admin/user/logout');
    await page.getByTestId('message-bell').click();
    // One message however many calls were refused at once.
    await expect(page.locator('.ant-message-notice').filter({ hasText: /登录/ })).toHaveCount(1);
    await expect(page).toHaveURL(/\/login/, { timeout: 5000 });
  });

  test('logout clears the session and closes the tabs', async ({ page }) => {
    await signIn(page);
    await page.goto('/system/user/manage');
    await expect(rows(page).first()).toBeVisible();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('Admin-Token'))).toBeNull();
    // The server clears its HttpOnly cookie when it revokes the session.
    await expect
      .poll(async () => (await page.context().cookies()).find((c) => c.name === 'Admin-Token'))
      .toBeUndefined();
    await page.goto('/system/user/manage');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await signIn(page);
    await expect(page.getByTestId('tags-view').locator('.rm-tag')).toHaveText(['首页', '用户管理']);
  });

  test('the session cookie is set by the server: HttpOnly, SameSite=Lax, unreadable by scripts', async ({
    page,
  }) => {
    await signIn(page);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'Admin-Token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('Admin-Token');
  });

  test('/auth-redirect: a token in a link never replaces the session; a one-time code in the same browser signs in', async ({
    page,
    request,
    guard,
  }) => {
    guard.allow(/status of 401/);
    const other = await Api.login(request, 'fin01', 'demo123');
    const admin = await Api.login(request);
    await signedIn(page, admin);
    await page.goto(`/auth-redirect?token=${other.token}&redirect=/home/info`);
    await expect(page).toHaveURL(/\/home\/info$/);
    expect(await page.evaluate(() => localStorage.getItem('Admin-Token'))).toBe(admin.token);

    // A signed-in page asks for a hand-off code; this browser holds the binding cookie.
    const url = await page.evaluate(async (token) => {
      const r = await fetch('/api/v1/sso/handoff', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      return (await r.json()).result.url as string;
    }, admin.token);
    await page.goto(`${url}&redirect=/system/user/manage`);
    await expect(page).toHaveURL(/\/system\/user\/manage$/);
    await expect(page.getByTestId('breadcrumb')).toContainText('用户管理');
    const handedOver = await page.evaluate(() => localStorage.getItem('Admin-Token'));
    expect(handedOver).toBeTruthy();
    expect(handedOver).not.toBe(admin.token);
    const me = await page.evaluate(async (token) => {
      const r = await fetch(`/api/v1/sso/getUserByToken?token=${token}`);
      return (await r.json()).result.userName as string;
    }, handedOver);
    expect(me).toBe('admin');
    // The code is spent.
    await page.goto(url);
    await expect(page).not.toHaveURL(/auth-redirect/);
    expect(await page.evaluate(() => localStorage.getItem('Admin-Token'))).toBe(handedOver);
  });
});
