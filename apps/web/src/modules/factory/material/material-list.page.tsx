import '../factory.css';
import { useState } from 'react';
import { ResourceList } from '../../../platform/resource/resource-list.tsx';
import type { ResourcePageProps } from '../../../platform/resource/routes.ts';
import { MaterialTypeTree } from './material-type-tree.tsx';

/** 物料列表: the material type tree on the left filters the kit's list on the right. */
export function MaterialListPage({ def }: ResourcePageProps) {
  const [typeId, setTypeId] = useState<number | undefined>();
  return (
    <div className="rm-split fm-material-page" data-testid={`page-${def.name}`}>
      <aside className="rm-split-side fm-side">
        <MaterialTypeTree selected={typeId} onSelect={setTypeId} />
      </aside>
      <div className="rm-split-main">
        <ResourceList
          def={def}
          fixedFilters={{ materialTypeId: typeId }}
          hiddenFilters={['materialTypeId']}
        />
      </div>
    </div>
  );
}
