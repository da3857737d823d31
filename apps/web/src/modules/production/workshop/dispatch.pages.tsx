import { workshopPaths } from '@ringmes/domain';
import type { PageProps } from '../../../platform/page.ts';
import { ResourceDetailPage } from '../../../platform/resource/resource-detail.page.tsx';
import { ResourceListPage } from '../../../platform/resource/resource-list.page.tsx';
import { dispatchRoutes, kindOf, workDispatchResource } from './workshop.api.ts';

/**
 * 车加工派工 (and the other three): the workshop's dispatches — edit and delete while 已派工, the
 * lifecycle buttons by permission, 查看 opens 派工信息.
 */
export function WorkDispatchListPage({ path }: PageProps) {
  const kind = kindOf(path);
  return (
    <ResourceListPage
      path={path}
      def={workDispatchResource}
      routes={dispatchRoutes(kind)}
      fixedFilters={{ workshopType: kind.type }}
      hiddenFilters={['workshopType']}
    />
  );
}

/** 车间操作工任务: every operator's dispatches in the workshop (read and export). */
export function WorkshopOperatorTaskPage({ path }: PageProps) {
  const kind = kindOf(path);
  return (
    <ResourceListPage
      path={path}
      def={workDispatchResource}
      routes={{ list: workshopPaths(kind).workshopOperatorTask, formOnPage: false }}
      fixedFilters={{ workshopType: kind.type }}
      hiddenFilters={['workshopType']}
    />
  );
}

/** 派工信息: one dispatch with its lifecycle (开工, 暂停, 完工, 关闭) by permission. */
export function DispatchInfoPage({ path }: PageProps) {
  const kind = kindOf(path);
  return <ResourceDetailPage path={path} def={workDispatchResource} routes={dispatchRoutes(kind)} />;
}
