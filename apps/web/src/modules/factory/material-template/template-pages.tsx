import { AppstoreAddOutlined } from '@ant-design/icons';
import { type FieldDef, materialInfoResource } from '@ringmes/domain';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { ResourceFormModal } from '../../../platform/resource/resource-form.tsx';
import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import { type ResourcePageProps, resourceRoutes } from '../../../platform/resource/routes.ts';
import { MATERIAL_OVERRIDES } from '../material/material-form.page.tsx';

/** What a material made from a template needs: identity, classification, units, the attribute values. */
const FROM_TEMPLATE_FIELDS = [
  'templateId',
  'attributes',
  'code',
  'name',
  'spec',
  'materialTypeId',
  'unitId',
  'classificationId',
  'manufacturingMethodId',
  'productGroupId',
  'defaultWarehouseId',
  'drawingNo',
  'batchManaged',
  'status',
];
const fields: FieldDef[] = FROM_TEMPLATE_FIELDS.map(
  (n) => materialInfoResource.fields.find((f) => f.name === n) as FieldDef,
).filter(Boolean);

/** 按模板新建物料: a material form with the template fixed; saved through `POST material-template/add/materialInfo`. */
export function CreateFromTemplateModal({
  template,
  onClose,
}: {
  template: ResourceRow | null;
  onClose: () => void;
}) {
  const routes = resourceRoutes(materialInfoResource);
  return (
    <ResourceFormModal
      def={materialInfoResource}
      open={Boolean(template)}
      title={template ? `按模板新建物料：${template.name}` : ''}
      fields={fields}
      locked={['templateId']}
      initialValues={template ? { templateId: template.id } : undefined}
      overrides={MATERIAL_OVERRIDES}
      width={880}
      onClose={onClose}
      submit={(body) =>
        http.post<ResourceRow>('/api/v1/material-template/add/materialInfo', body, { silent: true })
      }
      onSaved={(material) => {
        Modal.success({
          title: '物料已创建',
          content: `已按模板创建物料「${material.name}（${material.code}）」。`,
          okText: '查看物料',
          closable: true,
          onOk: () => routes.detail && openResourcePage(routes.detail, material.id),
        });
      }}
    />
  );
}

function CreateButton({ row, onClick, size }: { row: ResourceRow; onClick: () => void; size?: 'small' }) {
  const can = usePermission();
  if (!can(`${materialInfoResource.permission}:add`) || row.status !== '1') return null;
  return (
    <Button
      type={size ? 'link' : 'default'}
      size={size}
      icon={size ? undefined : <AppstoreAddOutlined />}
      onClick={onClick}
    >
      按模板新建物料
    </Button>
  );
}

/** 物料模板 list with 按模板新建物料 per enabled template. */
export function TemplateListPage(props: ResourcePageProps) {
  const [template, setTemplate] = useState<ResourceRow | null>(null);
  return (
    <>
      <ResourceListPage
        {...props}
        rowActions={(row) => <CreateButton row={row} size="small" onClick={() => setTemplate(row)} />}
        rowActionsWidth={110}
      />
      <CreateFromTemplateModal template={template} onClose={() => setTemplate(null)} />
    </>
  );
}

/** 物料模板详情 with 按模板新建物料. */
export function TemplateDetailPage(props: ResourcePageProps) {
  const [template, setTemplate] = useState<ResourceRow | null>(null);
  return (
    <>
      <ResourceDetailPage
        {...props}
        actions={(row) => <CreateButton row={row} onClick={() => setTemplate(row)} />}
      />
      <CreateFromTemplateModal template={template} onClose={() => setTemplate(null)} />
    </>
  );
}
