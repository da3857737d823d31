import type { PageLoader } from '../../platform/resource/area-pages.ts';

/** 轴承套圈标准: the ISO 492 / GB/T 307.1 tables with the derivation panel, and one product's limits and customer tightenings. */
export const STANDARD_PAGES: Record<string, PageLoader> = {
  '/quality-testing/bearing-ring-standard': () =>
    import('./ring-standard.page.tsx').then((m) => m.RingStandardPage),
  '/quality-testing/bearing-ring-standard-detail': () =>
    import('./ring-standard-detail.page.tsx').then((m) => m.RingStandardDetailPage),
};
