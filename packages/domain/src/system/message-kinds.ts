/** The kinds of in-app message (消息中心), with the label and tag colour users see. */
export const MESSAGE_KINDS = {
  system: { label: '系统通知', color: 'blue' },
  export: { label: '导出', color: 'green' },
  'stock-alert': { label: '库存预警', color: 'orange' },
  repair: { label: '设备维修', color: 'red' },
  spc: { label: 'SPC 失控', color: 'magenta' },
  maintenance: { label: '保养逾期', color: 'volcano' },
  dispatch: { label: '派工', color: 'cyan' },
  inspection: { label: '待检验', color: 'purple' },
  mention: { label: '评论提及', color: 'geekblue' },
} as const satisfies Record<string, { label: string; color: string }>;

export type MessageKind = keyof typeof MESSAGE_KINDS;

/** The Chinese label of a message kind; never the raw code. */
export function messageKindLabel(kind: string | null | undefined): string {
  return (kind && MESSAGE_KINDS[kind as MessageKind]?.label) || '通知';
}
