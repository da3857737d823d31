import { describe, expect, it } from 'vitest';
import {
  defaultLayout,
  ean13Problem,
  layoutSchema,
  PRINT_DOC_TYPES,
  type PrintDocTypeName,
  pageBox,
  printValue,
} from './print-template.ts';

describe('print layouts', () => {
  it('every type has a default layout that passes its own check and fits its page', () => {
    for (const name of Object.keys(PRINT_DOC_TYPES) as PrintDocTypeName[]) {
      const layout = defaultLayout(name);
      expect(layoutSchema.safeParse(layout).success, name).toBe(true);
      expect(layout.page).toBe(PRINT_DOC_TYPES[name].page);
    }
    // A label's number is a Code 128 barcode.
    expect(defaultLayout('flow-card').elements.find((e) => e.kind === 'barcode')).toMatchObject({
      field: 'docNo',
      symbology: 'code128',
    });
  });

  it('refuses an element beyond the page, with the page in the message', () => {
    const r = layoutSchema.safeParse({
      page: 'label60x40',
      elements: [{ id: 'a', kind: 'text', text: 'x', x: 50, y: 2, w: 20, h: 5 }],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe('第 1 个元素超出了纸张（60×40 mm）');
    // Landscape A5 is 210 wide.
    expect(pageBox({ page: 'A5', landscape: true })).toEqual({ width: 210, height: 148 });
  });

  it('refuses an unknown element kind and symbology in Chinese', () => {
    const kind = layoutSchema.safeParse({
      page: 'A4',
      elements: [{ id: 'a', kind: 'video', x: 0, y: 0, w: 1, h: 1 }],
    });
    expect(kind.error?.issues[0].message).toBe('元素类型只能是文字、字段、明细表、图片、二维码或条形码');
    const sym = layoutSchema.safeParse({
      page: 'A4',
      elements: [{ id: 'a', kind: 'barcode', field: 'docNo', symbology: 'qr', x: 0, y: 0, w: 10, h: 10 }],
    });
    expect(sym.error?.issues[0].message).toBe('条码类型只能是 Code 128 或 EAN-13');
  });

  it('prints values as the server answered them, quantities without trailing zeros', () => {
    expect(printValue({ quantity: '1200.000' }, 'quantity')).toBe('1200');
    expect(printValue({ quantity: '12.500' }, 'quantity')).toBe('12.5');
    expect(printValue({ docNo: 'LZ20261122-0001' }, 'docNo')).toBe('LZ20261122-0001');
    expect(printValue({}, 'heatNo')).toBe('');
  });

  it('checks an EAN-13 check digit (4006381333931 is right, …932 is not)', () => {
    expect(ean13Problem('4006381333931')).toBeUndefined();
    expect(ean13Problem('400638133393')).toBeUndefined();
    expect(ean13Problem('4006381333932')).toBe('EAN-13 条码的校验位不正确');
    expect(ean13Problem('LZ-1')).toBe('EAN-13 条码只能是 12 或 13 位数字');
  });
});
