import { Api, expect, shot, signedIn, signIn, test, toast, unique } from './support.ts';

test.describe('change password (spec section 5)', () => {
  test('the 460 px dialog shows the four validation messages', async ({ page, request }) => {
    const api = await Api.login(request);
    await signedIn(page, api, '/home/info');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await expect(dialog).toBeVisible();
    await expect(page.locator('.ant-modal.rm-change-password')).toHaveCSS('width', '460px');

    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog.getByText('请输入当前密码')).toBeVisible();
    await expect(dialog.getByText('请输入新密码')).toBeVisible();
    await expect(dialog.getByText('请输入确认密码')).toBeVisible();

    await dialog.getByLabel('新密码').fill('123');
    await dialog.getByLabel('确认密码').fill('123');
    await expect(dialog.getByText('密码不能少于6位数')).toHaveCount(2);

    await dialog.getByLabel('新密码').fill('abcdef');
    await dialog.getByLabel('确认密码').fill('abcdeg');
    await expect(dialog.getByText('两次输入密码不一致!')).toBeVisible();
    await shot(page, '14-change-password');
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await expect(dialog).toBeHidden();
  });

  test('on success a message and a forced logout; the new password works', async ({ page, request }) => {
    const admin = await Api.login(request);
    const userName = unique('pwd');
    await admin.post('/api/v1/user/newAddUser', {
      userName,
      firstName: '改密测试',
      passWord: 'Start-ring-4',
      status: '1',
    });
    const me = await Api.login(request, userName, 'Start-ring-4');
    await signedIn(page, me, '/home/info');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '修改密码' }).click();
    const dialog = page.getByRole('dialog', { name: '修改密码' });
    await dialog.getByLabel('当前密码').fill('Start-ring-4');
    await dialog.getByLabel('新密码').fill('changed456');
    await dialog.getByLabel('确认密码').fill('changed456');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '密码修改成功')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, userName, 'changed456');
    await expect(page.getByTestId('top-menu')).toBeVisible();
  });
});
