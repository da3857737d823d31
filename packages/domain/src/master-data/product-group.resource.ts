import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const productGroupResource: ResourceDef = dictionaryResource({
  name: 'product-group',
  label: '产品组',
  table: 'product_group',
  permission: 'factory:product',
  route: '/factory-info/material-manage/product-manage',
  nameHelp: '按产品系列归集销售和生产统计，如 62 系列、63 系列',
});
