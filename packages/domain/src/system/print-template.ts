import { z } from 'zod';
import {
  BARCODE_SYMBOLOGIES,
  type BarcodeSymbology,
  PAGE_SIZES,
  type PageSize,
  PRINT_DOC_TYPES,
  type PrintDocType,
  type PrintDocTypeName,
} from './print-doc-types.ts';

export * from './print-doc-types.ts';

/**
 * 打印模板 (issue 41 §3): a printout is a page of absolutely placed elements, in millimetres from
 * the page's top left corner, filled from one record's data. The same layout drives the editor's
 * canvas, the preview and the printout; the server stores it and checks it with `layoutSchema`.
 */

// ------------------------------------------------------------------ the layout and its checks

const PAGE_SIZE_NAMES = Object.keys(PAGE_SIZES) as [PageSize, ...PageSize[]];
const DOC_TYPE_NAMES = Object.keys(PRINT_DOC_TYPES) as [PrintDocTypeName, ...PrintDocTypeName[]];

const mm = (what: string, max: number) =>
  z
    .number({ error: `${what}必须是数字（毫米）` })
    .min(0, `${what}不能小于 0`)
    .max(max, `${what}不能超过 ${max} 毫米`);
const size = (what: string, max: number) =>
  z
    .number({ error: `${what}必须是数字（毫米）` })
    .min(1, `${what}至少 1 毫米`)
    .max(max, `${what}不能超过 ${max} 毫米`);
const key = z
  .string({ error: '请选择字段' })
  .trim()
  .min(1, '请选择字段')
  .max(60, '字段名不能超过 60 个字符')
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, '字段名只能由字母、数字和下划线组成');
const fontSize = z
  .number({ error: '字号必须是数字' })
  .min(4, '字号不能小于 4')
  .max(72, '字号不能超过 72')
  .optional();
const align = z.enum(['left', 'center', 'right'], { error: '对齐方式只能是左、中、右' }).optional();

const base = {
  id: z.string({ error: '元素缺少编号' }).min(1, '元素缺少编号').max(40, '元素编号不能超过 40 个字符'),
  x: mm('横坐标', 297),
  y: mm('纵坐标', 297),
  w: size('宽度', 297),
  h: size('高度', 297),
};

export const elementSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      ...base,
      kind: z.literal('text'),
      text: z.string({ error: '请输入文字' }).max(500, '文字不能超过 500 个字符'),
      fontSize,
      bold: z.boolean().optional(),
      align,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('field'),
      field: key,
      /** Printed before the value (「数量：」); none when empty. */
      prefix: z.string().max(40, '前缀不能超过 40 个字符').optional(),
      fontSize,
      bold: z.boolean().optional(),
      align,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('table'),
      columns: z
        .array(
          z.strictObject({
            field: key,
            title: z.string().max(40, '列标题不能超过 40 个字符'),
            width: z.number().min(1, '列宽至少 1 毫米').max(297, '列宽不能超过 297 毫米').optional(),
          }),
          { error: '明细表的列不正确' },
        )
        .min(1, '明细表至少要有一列')
        .max(20, '明细表最多 20 列'),
      fontSize,
    }),
    z.strictObject({
      ...base,
      kind: z.literal('image'),
      /** `logo` (系统设置's company logo) or an image as a data URL. */
      src: z
        .string({ error: '请选择图片' })
        .max(300_000, '图片不能超过 200 KB')
        .refine(
          (s) => s === 'logo' || /^data:image\/(png|jpeg|gif|svg\+xml);base64,/.test(s),
          '图片只能是公司标志或 PNG/JPEG/GIF/SVG 图片',
        ),
    }),
    z.strictObject({ ...base, kind: z.literal('qr'), field: key }),
    z.strictObject({
      ...base,
      kind: z.literal('barcode'),
      field: key,
      symbology: z.enum(Object.keys(BARCODE_SYMBOLOGIES) as [BarcodeSymbology, ...BarcodeSymbology[]], {
        error: '条码类型只能是 Code 128 或 EAN-13',
      }),
      /** The human-readable text under the bars. */
      showText: z.boolean().optional(),
    }),
  ],
  { error: '元素类型只能是文字、字段、明细表、图片、二维码或条形码' },
);
export type PrintElement = z.infer<typeof elementSchema>;

export const layoutSchema = z
  .strictObject({
    page: z.enum(PAGE_SIZE_NAMES, { error: '纸张只能是 A4、A5 或 60×40 mm 标签' }),
    /** Landscape: width and height of the page swapped. */
    landscape: z.boolean().optional(),
    elements: z.array(elementSchema, { error: '元素列表不正确' }).max(200, '一个模板最多 200 个元素'),
  })
  .superRefine((layout, ctx) => {
    const page = pageBox(layout);
    layout.elements.forEach((e, i) => {
      if (e.x + e.w > page.width + 0.01 || e.y + e.h > page.height + 0.01)
        ctx.addIssue({
          code: 'custom',
          path: ['elements', i],
          message: `第 ${i + 1} 个元素超出了纸张（${page.width}×${page.height} mm）`,
        });
    });
    const ids = new Set<string>();
    layout.elements.forEach((e, i) => {
      if (ids.has(e.id))
        ctx.addIssue({ code: 'custom', path: ['elements', i, 'id'], message: '元素编号重复' });
      ids.add(e.id);
    });
  });
export type PrintLayout = z.infer<typeof layoutSchema>;

export const docTypeSchema = z.enum(DOC_TYPE_NAMES, {
  error: `单据类型只能是：${DOC_TYPE_NAMES.map((n) => PRINT_DOC_TYPES[n].label).join('、')}`,
});

/** The page's box in millimetres, landscape applied. */
export function pageBox(layout: Pick<PrintLayout, 'page' | 'landscape'>): { width: number; height: number } {
  const p = PAGE_SIZES[layout.page];
  return layout.landscape ? { width: p.height, height: p.width } : { width: p.width, height: p.height };
}

/**
 * The text of a field in a record's print data: '' for a missing value, numbers as typed
 * (exact decimal strings stay as the server answered them, trailing zeros of a quantity dropped).
 */
export function printValue(data: Record<string, unknown>, field: string): string {
  const v = data[field];
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' && /^-?\d+\.\d+$/.test(v)) return v.replace(/\.?0+$/, '');
  if (Array.isArray(v)) return v.join('、');
  return String(v);
}

/** Whether `digits` can be printed as EAN-13: 12 digits (the check digit is added) or 13 with a right one. */
export function ean13Problem(value: string): string | undefined {
  if (!/^\d{12,13}$/.test(value)) return 'EAN-13 条码只能是 12 或 13 位数字';
  if (value.length === 13) {
    const d = [...value].map(Number);
    const sum = d.slice(0, 12).reduce((s, n, i) => s + n * (i % 2 ? 3 : 1), 0);
    if ((10 - (sum % 10)) % 10 !== d[12]) return 'EAN-13 条码的校验位不正确';
  }
  return undefined;
}

/**
 * The template a type prints with when the factory has chosen none: the layouts that were fixed
 * before templates existed (a 60 × 40 label with its number as Code 128 and QR; an A4 document
 * with its header fields and lines).
 */
export function defaultLayout(docType: PrintDocTypeName): PrintLayout {
  const t: PrintDocType = PRINT_DOC_TYPES[docType];
  if (t.page === 'label60x40') {
    const [code, name, ...rest] = t.fields;
    return {
      page: 'label60x40',
      elements: [
        { id: 'name', kind: 'field', field: name.key, x: 2, y: 2, w: 56, h: 5, fontSize: 9, bold: true },
        { id: 'qr', kind: 'qr', field: code.key, x: 2, y: 8, w: 18, h: 18 },
        ...rest.slice(0, 3).map(
          (f, i): PrintElement => ({
            id: `f${i}`,
            kind: 'field',
            field: f.key,
            prefix: `${f.label}：`,
            x: 22,
            y: 8 + i * 6,
            w: 36,
            h: 5,
            fontSize: 7,
          }),
        ),
        {
          id: 'barcode',
          kind: 'barcode',
          field: code.key,
          symbology: 'code128',
          showText: true,
          x: 4,
          y: 27,
          w: 52,
          h: 11,
        },
      ],
    };
  }
  const fields = t.fields.filter(
    (f) => f.key !== 'companyName' && f.key !== 'printedAt' && f.key !== 'docNo',
  );
  return {
    page: t.page,
    elements: [
      {
        id: 'company',
        kind: 'field',
        field: 'companyName',
        x: 15,
        y: 12,
        w: 140,
        h: 8,
        fontSize: 14,
        bold: true,
      },
      { id: 'title', kind: 'text', text: t.label, x: 15, y: 21, w: 140, h: 9, fontSize: 18, bold: true },
      {
        id: 'docNo',
        kind: 'field',
        field: 'docNo',
        prefix: '单据编号：',
        x: 15,
        y: 31,
        w: 140,
        h: 6,
        fontSize: 10,
      },
      { id: 'qr', kind: 'qr', field: 'docNo', x: 170, y: 10, w: 25, h: 25 },
      ...fields.map(
        (f, i): PrintElement => ({
          id: `f${i}`,
          kind: 'field',
          field: f.key,
          prefix: `${f.label}：`,
          x: 15 + (i % 2) * 90,
          y: 40 + Math.floor(i / 2) * 7,
          w: 88,
          h: 6,
          fontSize: 10,
        }),
      ),
      ...(t.lines
        ? [
            {
              id: 'lines',
              kind: 'table',
              x: 15,
              y: 44 + Math.ceil(fields.length / 2) * 7,
              w: 180,
              h: 120,
              fontSize: 9,
              columns: t.lines.map((c) => ({ field: c.key, title: c.label })),
            } satisfies PrintElement,
          ]
        : []),
      {
        id: 'printedAt',
        kind: 'field',
        field: 'printedAt',
        prefix: '打印时间：',
        x: 125,
        y: 280,
        w: 70,
        h: 6,
        fontSize: 8,
        align: 'right',
      },
    ],
  };
}
