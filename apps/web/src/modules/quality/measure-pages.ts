import { measurementSubgroupResource, SPC_FAMILIES, type SpcFamily } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 计量检定: 外径测量 is the kit's list of 测量记录 under a subgroup entry grid and the gauge import. */
export const MEASURE_PAGES: Record<string, PageLoader> = resourcePageLoaders(measurementSubgroupResource, {
  list: () => import('./measure-entry.page.tsx').then((m) => m.MeasureEntryPage),
});

/** 统计报表: one SPC report page, parameterised by characteristic family (沟道, 角度, 高度, 内外径). */
export const STATISTICS_PAGES: Record<string, PageLoader> = Object.fromEntries(
  (Object.keys(SPC_FAMILIES) as SpcFamily[]).map((family) => [
    SPC_FAMILIES[family].route,
    () =>
      import('./spc-report.page.tsx').then(
        (m) => (props: PageProps) => createElement(m.SpcReportPage, { ...props, family }),
      ),
  ]),
);
