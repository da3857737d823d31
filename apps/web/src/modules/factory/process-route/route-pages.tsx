import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../../platform/resource/routes.ts';
import { VersionStatusButtons } from '../shared/version-status.tsx';

/** 工艺路线: the kit's list with 启用/停用 per version. */
export function RouteListPage(props: ResourcePageProps) {
  return (
    <ResourceListPage
      {...props}
      rowActions={(row, { def }) => <VersionStatusButtons def={def} row={row} />}
      rowActionsWidth={48}
    />
  );
}
