import { describe, expect, it } from 'vitest';
import { fitColumns } from './responsive.ts';

describe('columns below 992 px', () => {
  const columns = [
    { key: 'docNo', fixed: 'left' as const, width: 160 },
    { dataIndex: 'type', width: 120 },
    { dataIndex: 'status', width: 86 },
    { key: 'actions', fixed: 'right' as const, width: 230 },
  ];

  it('keeps every column on a wide screen', () => {
    expect(fitColumns(columns, false, ['docNo'])).toEqual(columns);
  });

  it('keeps the priority columns only, none fixed or sized, on a phone or tablet', () => {
    expect(fitColumns(columns, true, ['docNo', 'status', 'actions'])).toEqual([
      { key: 'docNo', fixed: undefined, width: undefined },
      { dataIndex: 'status', width: undefined, fixed: undefined },
      { key: 'actions', fixed: undefined, width: undefined },
    ]);
  });
});
