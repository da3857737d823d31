import type { ResourceDef } from '@ringmes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal } from 'antd';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { recordTitle } from '../../../platform/resource/fields.ts';
import { type ResourceRow, resourceApi } from '../../../platform/resource/resource-api.ts';
import { invalidateResource } from '../../../platform/resource/use-options.ts';

/**
 * 启用 / 停用 of a versioned definition (BOM, process route): one active version per product,
 * so enabling a version while another is active is refused by the server with its message.
 */
export function VersionStatusButtons({
  def,
  row,
  size = 'small',
  type = 'link',
}: {
  def: ResourceDef;
  row: ResourceRow;
  size?: 'small' | 'middle';
  type?: 'link' | 'default';
}) {
  const can = usePermission();
  const client = useQueryClient();
  const active = row.status === 'active';
  const action = active ? 'disable' : 'enable';
  if (!can(`${def.permission}:${action}`)) return null;
  const label = active ? '停用' : '启用';
  const confirm = () =>
    Modal.confirm({
      title: `${label}${def.label}`,
      content: active
        ? `确定停用「${recordTitle(def, row)}」吗？停用后新下达的生产订单不再使用此版本。`
        : `确定启用「${recordTitle(def, row)}」吗？每个产品只能有一个启用的版本，新下达的生产订单将使用此版本。`,
      okText: label,
      cancelText: '取消',
      onOk: async () => {
        try {
          await resourceApi(def).edit(row.id, {
            status: active ? 'inactive' : 'active',
            version: row.version,
          });
          toast.success(`已${label}`);
          invalidateResource(client, def.name);
        } catch {
          // the request layer has shown the server's message
        }
      },
    });
  return (
    <Button type={type} size={size} onClick={confirm}>
      {label}
    </Button>
  );
}
