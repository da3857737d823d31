import type { ResourceDef } from '../resource/types.ts';

/**
 * 工序工资 (piece rates): what a worker earns per good piece of a process, optionally for one
 * product, from a date on. Posting a work report takes the rate in force on the report date
 * (the product's own rate before the process's general one; the latest `validFrom` not after
 * the date) and writes it on the wage line, so a later rate never rewrites what was paid.
 * 工废 (operator-caused scrap) is deducted at `deductionRate`; 料废 is not deducted; rework
 * pieces are paid at `reworkRate`. A rate may not start inside a closed wage month.
 */
export const processWageResource: ResourceDef = {
  name: 'process-wage',
  label: '工序工资',
  table: 'process_wage',
  permission: 'finance:wage',
  route: '/finance-department/process-wage',
  labelField: 'validFrom',
  importable: false,
  fields: [
    {
      name: 'processId',
      label: '工序',
      kind: 'ref',
      ref: 'process-manage',
      required: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'productId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      filter: 'eq',
      help: '不填则对该工序的所有产品有效；填写后该产品优先使用本单价',
    },
    {
      name: 'validFrom',
      label: '生效日期',
      kind: 'date',
      required: true,
      default: 'today',
      filter: 'range',
      sortable: true,
      help: '报工日期不早于此日的报工按本单价计件；不能早于已结账月份',
    },
    {
      name: 'pieceRate',
      label: '计件单价(元/件)',
      kind: 'price',
      required: true,
      min: 0,
      max: 100000,
      sortable: true,
    },
    {
      name: 'deductionRate',
      label: '工废扣款(元/件)',
      kind: 'price',
      default: 0,
      min: 0,
      max: 100000,
      help: '操作工原因的废品（工废）每件扣款；料废不扣',
    },
    {
      name: 'reworkRate',
      label: '返工单价(元/件)',
      kind: 'price',
      default: 0,
      min: 0,
      max: 100000,
      help: '返工件按此单价另计',
    },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
  ],
  defaultSort: { field: 'validFrom', order: 'desc' },
};
