import { defaultLayout, layoutSchema, type PrintDocTypeName, type PrintLayout } from '@ringmes/domain';
import type { Db } from '../platform/db/db.ts';

/**
 * 打印模板 of the demo (issue 41 §3): the factory's own 流转卡 label (heat number large for the
 * heat-treatment shop, Code 128 of the card number along the bottom), a 成品箱 label, a 物料 label
 * and a customer's copy of the 销售订单 (logo, no prices), each its type's default.
 */
const TEMPLATES: { docType: PrintDocTypeName; name: string; remark: string; layout: PrintLayout }[] = [
  {
    docType: 'flow-card',
    name: '车间流转卡标签（炉号）',
    remark: '热处理车间要求炉号醒目',
    layout: {
      page: 'label60x40',
      elements: [
        { id: 'company', kind: 'field', field: 'companyName', x: 2, y: 1.5, w: 40, h: 4, fontSize: 6 },
        {
          id: 'name',
          kind: 'field',
          field: 'productName',
          x: 2,
          y: 5.5,
          w: 38,
          h: 5,
          fontSize: 9,
          bold: true,
        },
        { id: 'qr', kind: 'qr', field: 'docNo', x: 42, y: 1.5, w: 16, h: 16 },
        {
          id: 'part',
          kind: 'field',
          field: 'partName',
          prefix: '零件：',
          x: 2,
          y: 11,
          w: 38,
          h: 4,
          fontSize: 7,
        },
        {
          id: 'qty',
          kind: 'field',
          field: 'quantity',
          prefix: '数量：',
          x: 2,
          y: 15,
          w: 38,
          h: 4,
          fontSize: 7,
        },
        {
          id: 'heat',
          kind: 'field',
          field: 'heatNo',
          prefix: '炉号 ',
          x: 2,
          y: 19.5,
          w: 56,
          h: 6,
          fontSize: 12,
          bold: true,
        },
        {
          id: 'barcode',
          kind: 'barcode',
          field: 'docNo',
          symbology: 'code128',
          showText: true,
          x: 3,
          y: 26,
          w: 54,
          h: 12.5,
        },
      ],
    },
  },
  {
    docType: 'finished-box',
    name: '成品箱标签',
    remark: '贴在成品包装箱侧面',
    layout: {
      page: 'label60x40',
      elements: [
        {
          id: 'title',
          kind: 'text',
          text: '合格证 / 成品箱',
          x: 2,
          y: 1.5,
          w: 56,
          h: 4.5,
          fontSize: 8,
          bold: true,
          align: 'center',
        },
        {
          id: 'name',
          kind: 'field',
          field: 'productName',
          x: 2,
          y: 6.5,
          w: 56,
          h: 5,
          fontSize: 9,
          bold: true,
        },
        {
          id: 'qty',
          kind: 'field',
          field: 'quantity',
          prefix: '数量：',
          x: 2,
          y: 12,
          w: 30,
          h: 4,
          fontSize: 7,
        },
        {
          id: 'date',
          kind: 'field',
          field: 'printedAt',
          prefix: '装箱：',
          x: 2,
          y: 16,
          w: 40,
          h: 4,
          fontSize: 7,
        },
        { id: 'qc', kind: 'text', text: '检验：合格', x: 42, y: 12, w: 16, h: 4, fontSize: 7 },
        {
          id: 'barcode',
          kind: 'barcode',
          field: 'docNo',
          symbology: 'code128',
          showText: true,
          x: 3,
          y: 22,
          w: 54,
          h: 16,
        },
      ],
    },
  },
  { docType: 'material', name: '物料标签', remark: '仓库货架与来料', layout: defaultLayout('material') },
];

/** The customer's copy of the 销售订单: the default A4 with the logo and without prices. */
function customerSaleOrder(): PrintLayout {
  const base = defaultLayout('sale-order');
  return {
    ...base,
    elements: [
      { id: 'logo', kind: 'image', src: 'logo', x: 15, y: 4, w: 30, h: 8 },
      ...base.elements
        .filter((e) => !(e.kind === 'field' && e.field === 'totalAmount'))
        .map((e) =>
          e.kind === 'table'
            ? { ...e, columns: e.columns.filter((c) => c.field !== 'price' && c.field !== 'amount') }
            : e.id === 'title'
              ? { ...e, text: '销售订单（客户联）' }
              : e,
        ),
      {
        id: 'sign',
        kind: 'text',
        text: '客户签收：                日期：',
        x: 15,
        y: 268,
        w: 120,
        h: 7,
        fontSize: 10,
      },
    ],
  };
}

export async function seedDemoPrintTemplates(db: Db, adminId: number): Promise<void> {
  const all = [
    ...TEMPLATES,
    {
      docType: 'sale-order' as const,
      name: '销售订单（客户联）',
      remark: '给客户的副本，不显示单价和金额',
      layout: customerSaleOrder(),
    },
  ];
  for (const t of all) {
    // The same check as the API's: a demo template the editor could not save is a bug here.
    const layout = layoutSchema.parse(t.layout);
    await db
      .insertInto('printTemplate')
      .values({
        docType: t.docType,
        name: t.name,
        remark: t.remark,
        layout: JSON.stringify(layout),
        isDefault: true,
        createdBy: adminId,
      })
      .execute();
  }
}
