import { ResourceList, type ResourceListProps } from './resource-list.tsx';
import type { ResourcePageProps } from './routes.ts';

/** The list page of a resource at its menu route: search card and table card. */
export function ResourceListPage({
  def,
  path: _path,
  ...rest
}: ResourcePageProps & Omit<ResourceListProps, 'def'>) {
  return (
    <div className="rk-list-page" data-testid={`page-${def.name}`}>
      <ResourceList def={def} {...rest} />
    </div>
  );
}
