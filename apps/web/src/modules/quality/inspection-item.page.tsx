import { inspectionItemResource, inspectionTemplateResource } from '@ringmes/domain';
import { Tabs } from 'antd';
import type { PageProps } from '../../app/page-registry.ts';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';

/**
 * 检验项目: the items (计量 with limits and gauge, 计数 OK/NG; sampling fixed or GB/T 2828.1) and,
 * on the second tab, the templates grouping them per product × process × inspection kind.
 */
export function InspectionItemPage({ path }: PageProps) {
  return (
    <Tabs
      className="rk-list-page"
      items={[
        {
          key: 'items',
          label: '检验项目',
          children: <ResourceListPage path={path} def={inspectionItemResource} />,
        },
        {
          key: 'templates',
          label: '检验模板',
          children: (
            <ResourceListPage
              path={path}
              def={inspectionTemplateResource}
              routes={{ list: path, formOnPage: false }}
            />
          ),
        },
      ]}
    />
  );
}
