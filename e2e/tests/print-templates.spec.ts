import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { Api, activePage, expect, signedIn, test, toast, unique } from './support.ts';

/**
 * 打印模板 and scanning (issue 41 §3/§4): the factory edits the 流转卡 label template (drag, a
 * property, save, default), prints an order's card labels with it, and the Code 128 barcode
 * bwip-js drew reads back as the card number with ZXing; then the camera scan (the
 * barcode-detector polyfill on ZXing's WebAssembly, served by the app) reads that label and
 * opens the card.
 */

interface Row {
  id: number;
  [key: string]: any;
}

const require = createRequire(import.meta.url);
const wasm = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({
  overrides: {
    wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer,
  },
});

/** The codes in a PNG data URL, as ZXing reads them. */
async function decode(dataUrl: string) {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  return (await readBarcodes(new Uint8Array(png), { tryHarder: true })).map((r) => ({
    format: r.format,
    text: r.text,
  }));
}

test.describe('打印模板', () => {
  test('edits the 流转卡 label, prints an order’s labels with a Code 128 that reads back, and a camera scan opens the card', async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const admin = await Api.login(request);
    const name = unique('车间标签');

    // 系统设置 › 打印模板: a new 流转卡 template starts from the default label.
    await signedIn(page, admin, '/system/sysSetting/settingInfo');
    const settings = activePage(page);
    await settings.getByRole('tab', { name: '打印模板' }).click();
    await settings.getByRole('button', { name: '新建模板' }).click();
    const editor = settings.getByTestId('print-template-editor');
    await editor.getByLabel('模板名称').fill(name);
    const canvas = editor.getByTestId('print-canvas');
    const props = editor.getByTestId('print-properties');

    // Drag the product name 5 mm down: the canvas is zoomed, so 5 mm is 5 × zoom × 96/25.4 px.
    const nameBox = canvas.locator('[data-element="name"]');
    const before = (await nameBox.boundingBox())!;
    const pageBox = (await canvas.getByTestId('print-page').boundingBox())!;
    const pxPerMm = pageBox.width / 60;
    await page.mouse.move(before.x + 10, before.y + 5);
    await page.mouse.down();
    await page.mouse.move(before.x + 10, before.y + 5 + 2.5 * pxPerMm, { steps: 4 });
    await page.mouse.move(before.x + 10, before.y + 5 + 5 * pxPerMm, { steps: 4 });
    await page.mouse.up();
    // 5 mm further down, to the half millimetre the editor snaps to.
    await expect(props.getByLabel('纵坐标')).toHaveValue(/^(6\.5|7(\.0)?|7\.5)$/);
    const y = Number(await props.getByLabel('纵坐标').inputValue());
    // A property: the name 11 pt.
    await props.getByLabel('字号').fill('11');
    await props.getByLabel('字号').press('Tab');
    // The barcode element is Code 128 of the card number.
    await canvas.locator('[data-element="barcode"]').click();
    await expect(props.locator('.ant-select').filter({ has: page.getByLabel('条码类型') })).toContainText(
      'Code 128',
    );

    await editor.getByRole('button', { name: '保存模板' }).click();
    await expect(toast(page, '模板已保存')).toBeVisible();
    const row = settings.locator('.ant-table-row', { hasText: name });
    await row.getByRole('button', { name: '设为默认' }).click();
    await expect(row.locator('.ant-tag')).toHaveText('默认');
    const stored = (await admin.get<Row>('/api/v1/print-template/default', { docType: 'flow-card' })) as Row;
    expect(stored.name).toBe(name);
    expect(stored.layout.elements.find((e: { id: string }) => e.id === 'name')).toMatchObject({
      y,
      fontSize: 11,
    });

    // An order with two cards; 打印标签 on its 流转卡 tab prints both with the default template.
    const bearing = (await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { code: 'FG-6205-2RS' }))
      .list[0];
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: bearing.id,
      quantity: 300,
      plannedStartDate: '2026-11-20',
      dueDate: '2026-12-10',
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});
    const opened = await admin.post<{ cards: Row[] }>(`/api/v1/flow-card/open/${order.id}`, {
      batchSize: '150',
    });
    expect(opened.cards).toHaveLength(2);

    await page.goto(`/production-department/production-manage/produce-order-detail?id=${order.id}`);
    const detail = activePage(page);
    await detail.getByRole('tab', { name: '流转卡' }).click();
    const cards = detail.getByTestId('order-flow-cards');
    await cards.getByRole('button', { name: '打印标签' }).click();
    const sheet = page.getByTestId('template-print');
    await expect(sheet.getByTestId('print-page')).toHaveCount(2);
    await expect(sheet.locator('.ant-select')).toContainText(`默认模板（${name}）`);
    const codes = sheet.locator('img[data-symbology="code128"]');
    await expect(codes).toHaveCount(2);
    const read: string[] = [];
    for (let i = 0; i < 2; i++) {
      await expect(sheet.getByTestId('print-page').nth(i)).toContainText('数量：150');
      const decoded = await decode((await codes.nth(i).getAttribute('src')) as string);
      expect(decoded.map((d) => d.format)).toEqual(['Code128']);
      read.push(decoded[0].text);
    }
    expect(read.sort()).toEqual(opened.cards.map((c) => c.docNo).sort());
    const label = (await codes.nth(1).getAttribute('src')) as string;
    const scanned = (await decode(label))[0].text;
    await sheet.getByRole('button', { name: /关\s*闭/ }).click();
    await expect(sheet).toHaveCount(0);

    // The camera (a stream of the printed label) and the polyfill: the second card opens.
    await page.evaluate((src) => {
      const img = new Image();
      img.src = src;
      const canvas = document.createElement('canvas');
      const stream = () => {
        canvas.width = img.naturalWidth + 80;
        canvas.height = img.naturalHeight + 80;
        const g = canvas.getContext('2d') as CanvasRenderingContext2D;
        const paint = () => {
          g.fillStyle = '#fff';
          g.fillRect(0, 0, canvas.width, canvas.height);
          g.drawImage(img, 40, 40);
        };
        paint();
        setInterval(paint, 100);
        return canvas.captureStream(10);
      };
      const ready = new Promise<void>((r) => {
        img.onload = () => r();
      });
      Object.defineProperty(navigator, 'mediaDevices', {
        configurable: true,
        value: {
          getUserMedia: async () => {
            await ready;
            return stream();
          },
        },
      });
    }, label);
    expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
    const wasmServed = page.waitForResponse((r) => r.url().endsWith('.wasm'));
    await cards.getByRole('button', { name: '摄像头扫码' }).click();
    expect((await wasmServed).status()).toBe(200);
    await expect(page.locator('.ant-drawer:visible .ant-drawer-title')).toContainText(scanned, {
      timeout: 30_000,
    });
  });

  test('prints 物料标签 of the rows selected on the 物料列表 with the material code as Code 128', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    await signedIn(page, admin, '/factory-info/material-manage/material-list?code=FG-6205-2RS');
    const list = activePage(page);
    const row = list.locator('.ant-table-row', { hasText: 'FG-6205-2RS' }).first();
    await row.locator('.ant-checkbox-input').check();
    await list.getByRole('button', { name: '打印标签（1）' }).click();
    const sheet = page.getByTestId('template-print');
    await expect(sheet.getByTestId('print-page')).toHaveCount(1);
    const code = sheet.locator('img[data-symbology="code128"]');
    await expect(code).toHaveCount(1);
    expect(await decode((await code.getAttribute('src')) as string)).toEqual([
      { format: 'Code128', text: 'FG-6205-2RS' },
    ]);
  });

  test('prints a 销售订单 with the demo’s customised template: the customer’s copy without prices', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const order = (await admin.get<{ list: Row[] }>('/api/v1/sale-order/page', { pageNum: 1, pageSize: 1 }))
      .list[0];
    await signedIn(page, admin, `/sale-manage/sale-order-detail?id=${order.id}`);
    await activePage(page).getByRole('button', { name: '模板打印' }).click();
    const sheet = page.getByTestId('template-print');
    const sheetPage = sheet.getByTestId('print-page');
    await expect(sheetPage).toContainText('销售订单（客户联）');
    await expect(sheetPage).toContainText(`单据编号：${order.docNo}`);
    await expect(sheetPage.locator('th')).toContainText(['物料', '规格型号', '数量']);
    await expect(sheetPage.locator('th', { hasText: '单价' })).toHaveCount(0);
    await expect(sheetPage.locator('img[data-symbology="qr"]')).toHaveCount(1);
  });
});
