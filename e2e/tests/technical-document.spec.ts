import {
  Api,
  activePage,
  choose,
  confirmIn,
  expect,
  type Page,
  shot,
  signIn,
  test,
  toast,
  unique,
} from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const LIST = '/technology-dept/technology-manage';

/** A small valid PDF and a 1×1 PNG, as a user would upload them. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** Runs a transition whose button asks for confirmation (审批, 发布). */
async function confirmTransition(page: Page, name: string, label: RegExp, done: string) {
  await activePage(page).getByTestId(`transition-${name}`).click();
  await confirmIn(page, label);
  await expect(toast(page, done)).toBeVisible();
}

/** 新版本: the dialog of the transition's input fields (版本号 left empty: the server counts on). */
async function newRevision(page: Page, note: string) {
  await activePage(page).getByTestId('transition-revise').click();
  const dialog = page.locator('.ant-modal:visible');
  await dialog.locator('#changeNote').fill(note);
  await dialog.getByRole('button', { name: '新版本' }).click();
  await expect(toast(page, '新版本成功')).toBeVisible();
}

async function closePreview(page: Page) {
  await page
    .locator('.ant-modal:visible .ant-modal-footer')
    .getByRole('button', { name: /关\s*闭/ })
    .click();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
}

async function upload(page: Page, revisionNo: string, name: string, mimeType: string, buffer: Buffer) {
  const detail = activePage(page);
  const chooser = page.waitForEvent('filechooser');
  await detail.getByTestId(`upload-${revisionNo}`).click();
  await (await chooser).setFiles({ name, mimeType, buffer });
  await expect(toast(page, `已上传 ${name}`)).toBeVisible();
  await expect(detail.getByTestId(`file-${name}`)).toBeVisible();
}

test.describe('technical documents', () => {
  test('技术员 creates a drawing, uploads revision A and publishes it; revision B supersedes A when published', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const title = unique('6206-2RS 总图 E2E ');

    // Signed in through the form: the session cookie lets the previews (<iframe>, <img>) load.
    await page.goto('/login');
    await signIn(page);
    await page.goto(LIST);
    await activePage(page).getByRole('button', { name: '新增技术文档' }).click();
    const form = page.locator('.ant-modal:visible');
    await form.locator('#rk-modal-technical-document_title').fill(title);
    await form.locator('#rk-modal-technical-document_docType').getByText('图纸').click();
    await choose(page, 'rk-modal-technical-document_materialId', '6206-2RS');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(toast(page, /成功/)).toBeVisible();
    const doc = (await admin.get<{ list: Row[] }>('/api/v1/technical-document/page', { title, pageSize: 1 }))
      .list[0];
    expect(doc).toMatchObject({ status: 'draft', docType: 'drawing' });

    // Revision A with a PDF, approved and published.
    await page.goto(`${LIST}-detail?id=${doc.id}`);
    const detail = activePage(page);
    await expect(detail.getByText(doc.docNo).first()).toBeVisible();
    await newRevision(page, '初版');
    await expect(detail.getByTestId('revision-status-A')).toHaveText('草稿');
    await upload(page, 'A', '6206 总图 A.pdf', 'application/pdf', PDF);
    await confirmTransition(page, 'approve', /审\s*批/, '审批成功');
    await confirmTransition(page, 'publish', /发\s*布/, '发布成功');
    await expect(detail.getByTestId('revision-status-A')).toHaveText('现行');

    // The PDF previews in a frame of the page.
    await detail
      .getByTestId('file-6206 总图 A.pdf')
      .getByRole('button', { name: /预\s*览/ })
      .click();
    const preview = page.getByTestId('pdf-preview');
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute('src', /\/api\/v1\/attachment\/download\/\d+\?inline=true/);
    await closePreview(page);

    // Revision B: the document goes back to 草稿, A stays 现行 until B is published.
    await newRevision(page, '外径公差收紧为 h5');
    await expect(detail.getByTestId('revision-status-B')).toHaveText('草稿');
    await expect(detail.getByTestId('revision-status-A')).toHaveText('现行');
    await upload(page, 'B', '6206 外形.png', 'image/png', PNG);
    await detail
      .getByTestId('file-6206 外形.png')
      .getByRole('button', { name: /预\s*览/ })
      .click();
    const image = page.locator('.ant-modal:visible img[alt="6206 外形.png"]');
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await closePreview(page);
    await confirmTransition(page, 'approve', /审\s*批/, '审批成功');
    await confirmTransition(page, 'publish', /发\s*布/, '发布成功');

    await expect(detail.getByTestId('revision-status-B')).toHaveText('现行');
    await expect(detail.getByTestId('revision-status-A')).toHaveText('已替代');
    // The superseded revision's file is still listed and downloadable.
    await expect(detail.getByTestId('file-6206 总图 A.pdf')).toBeVisible();
    const current = await admin.get<Row>('/api/v1/technical-document/current', { productId: doc.materialId });
    expect(current).toMatchObject({ documentId: doc.id, revisionNo: 'B' });
    await shot(page, 'technical-document-detail');
  });
});
