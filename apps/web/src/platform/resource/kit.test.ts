import Schema from '@rc-component/async-validator';
import {
  customerResource,
  equipmentResource,
  materialInfoResource,
  productBomResource,
  productGroupResource,
  RESOURCES,
  stockTransferResource,
  supplierResource,
} from '@ringmes/domain';
import type { FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';
import { FACTORY_PAGES } from '../../modules/factory/factory-pages.ts';
import { fieldRules } from './field-input.tsx';
import { newRecordValues } from './fields.ts';
import { formatNumber, linkText } from './format.tsx';
import { applyServerErrors, toBody } from './resource-form.tsx';
import { resourceRoutes } from './routes.ts';

const field = (def: typeof materialInfoResource, name: string) => {
  const f = def.fields.find((x) => x.name === name);
  if (!f) throw new Error(name);
  return f;
};

describe('routes from the menu tree', () => {
  it('finds the hidden add/edit/detail pages of a list', () => {
    expect(resourceRoutes(materialInfoResource)).toEqual({
      list: '/factory-info/material-manage/material-list',
      add: '/factory-info/material-manage/material-add',
      edit: '/factory-info/material-manage/material-edit',
      detail: '/factory-info/material-manage/material-detail',
      formOnPage: true,
    });
    expect(resourceRoutes(productBomResource).detail).toBe(
      '/factory-info/material-manage/product-bom-detail',
    );
  });

  it('uses an -info page for both add and edit, and modals/drawers where pages are missing', () => {
    const equipment = resourceRoutes(equipmentResource);
    expect(equipment.add).toBe('/factory-info/equipment-manage/equipment-ledger-info');
    expect(equipment.edit).toBe(equipment.add);
    expect(equipment.detail).toBe('/factory-info/equipment-manage/equipment-ledger-detail');
    expect(resourceRoutes(supplierResource)).toMatchObject({ formOnPage: true, detail: undefined });
    // 产品管理 has an add page but no edit page: the list edits in a modal.
    expect(resourceRoutes(productGroupResource)).toMatchObject({
      add: '/factory-info/material-manage/product-add',
      formOnPage: false,
    });
  });

  it('uses a -panel page for both add and edit (调拨单编辑)', () => {
    expect(resourceRoutes(stockTransferResource)).toEqual({
      list: '/warehouse-logistics/warehouse-allot',
      add: '/warehouse-logistics/warehouse-allot-panel',
      edit: '/warehouse-logistics/warehouse-allot-panel',
      detail: '/warehouse-logistics/warehouse-allot-detail',
      formOnPage: true,
    });
  });

  it('registers a screen for every 工厂信息 resource with a route', () => {
    const factory = RESOURCES.filter((d) => d.route?.startsWith('/factory-info/'));
    expect(factory.length).toBeGreaterThan(15);
    for (const def of factory) expect(FACTORY_PAGES[def.route as string], def.name).toBeTypeOf('function');
  });
});

describe('form values and rules from the declaration', () => {
  it('builds strict bodies: declared fields only, trimmed, empty values cleared', () => {
    const values = {
      ...newRecordValues(customerResource),
      code: ' CUS100 ',
      name: '无锡轴承',
      phone: '',
      labelIds: undefined,
      creditLimit: '',
      contacts: [{ id: 3, customerId: 1, lineNo: 1, name: ' 陈工 ', email: '', isPrimary: true }],
      createdAt: '2026-11-22 10:00:00',
    };
    const body = toBody(customerResource, values);
    expect(body).toMatchObject({
      code: 'CUS100',
      name: '无锡轴承',
      phone: null,
      labelIds: [],
      creditLimit: null,
    });
    expect(body).not.toHaveProperty('createdAt');
    expect(body.contacts).toEqual([
      { name: '陈工', position: null, phone: null, email: null, isPrimary: true },
    ]);
    // Unset values with a declared default are left to the server.
    expect(toBody(customerResource, { code: 'X', name: 'Y' })).not.toHaveProperty('state');
  });

  it('a required reference accepts an id (no text type check)', async () => {
    const rules = fieldRules(field(productBomResource, 'productId'));
    const validator = new Schema({ productId: rules as never });
    await expect(validator.validate({ productId: 45 })).resolves.toBeDefined();
    await expect(validator.validate({ productId: undefined })).rejects.toMatchObject({
      errors: [{ message: '请选择产品' }],
    });
  });

  it('checks text length and patterns with the definition’s messages', async () => {
    const validator = new Schema({ phone: fieldRules(field(customerResource, 'phone')) as never });
    await expect(validator.validate({ phone: '电话' })).rejects.toMatchObject({
      errors: [{ message: '请输入有效的电话号码' }],
    });
  });
});

describe('server errors on the form', () => {
  const fakeForm = () => {
    const set: { name: (string | number)[]; errors: string[] }[] = [];
    const form = {
      setFields: (f: typeof set) => set.push(...f),
      scrollToField: () => undefined,
    } as unknown as FormInstance;
    return { form, set };
  };

  it('puts line errors on their cells and keeps the rest for the alert', () => {
    const { form, set } = fakeForm();
    const unplaced = applyServerErrors(form, productBomResource, productBomResource.fields, {
      code: '400',
      message: 'BOM 不能包含产品自身',
      errors: [
        { field: 'lines.0.materialId', message: '子件不能是产品自身' },
        { field: 'somethingElse', message: '其他' },
      ],
    });
    expect(set).toEqual([{ name: ['lines', 0, 'materialId'], errors: ['子件不能是产品自身'] }]);
    expect(unplaced).toEqual(['其他']);
  });

  it('marks the code field for a duplicate code (409 without field errors)', () => {
    const { form, set } = fakeForm();
    applyServerErrors(form, customerResource, customerResource.fields, {
      code: '409',
      message: '编码已存在',
      errors: [],
    });
    expect(set).toEqual([{ name: ['code'], errors: ['编码已存在'] }]);
  });
});

describe('the link column of a list', () => {
  it('names a reference (外径测量 lists its products by name, not by id)', async () => {
    const { measurementSubgroupResource: def } = await import('@ringmes/domain');
    const product = def.fields.find((f) => f.name === 'productId');
    if (!product) throw new Error('productId');
    expect(linkText(product, { productId: 16, productName: '6205 外圈' })).toBe('6205 外圈');
    expect(linkText(product, { productId: 16 })).toBe('#16');
    expect(linkText(field(materialInfoResource, 'code'), { code: 'SF-6205-OR-P6' })).toBe('SF-6205-OR-P6');
  });
});

describe('number formatting', () => {
  it('groups thousands and keeps the places each kind needs', () => {
    expect(formatNumber(field(customerResource, 'creditLimit'), '800000.00')).toBe('800,000.00');
    expect(formatNumber(field(materialInfoResource, 'standardCost'), '0.065900')).toBe('0.0659');
    expect(formatNumber(field(materialInfoResource, 'standardCost'), '0.800000')).toBe('0.80');
    expect(formatNumber(field(materialInfoResource, 'safetyStockMin'), '20000.0000')).toBe('20,000');
    expect(formatNumber(field(materialInfoResource, 'weight'), '-0.0045')).toBe('-0.0045');
  });
});
