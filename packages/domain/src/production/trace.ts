import { MENU_TREE } from '../menu/menu-tree.ts';
import { allPermissions } from '../menu/menu-utils.ts';

/**
 * 质量追溯 (issue 35): who may read a trace — a card back to the steel heats, a heat forward to the
 * customers, a shipped batch back. The 质量追溯 page's own permission, the readers of flow cards
 * (planners, card reports, every workshop's task, operator, report and 半成品 pages, quality's
 * lists, measurement entry) and the keepers of outbound documents (销售出库 lines trace back).
 * The server's routes and the web's buttons read the same list.
 */
export const TRACE_PAGE_PERMISSION = 'quality:trace:query';
export const TRACE_PAGE_PATH = '/quality-testing/trace';

export const TRACE_READERS: readonly string[] = allPermissions(MENU_TREE).filter(
  (p) =>
    p === TRACE_PAGE_PERMISSION ||
    p === 'production:order:list' ||
    p === 'production:flowCard:query' ||
    p === 'warehouse:salesOutbound:list' ||
    p === 'warehouse:outbound:list' ||
    /^production:\w+(Task|OperatorTask|Report|Semi):list$/.test(p) ||
    /^quality:\w+:list$/.test(p) ||
    /^measure:\w+:(list|add)$/.test(p),
);

/** How a card came from another (flow_card_link.kind). */
export const FLOW_CARD_LINK_KINDS: { value: string; label: string; color: string }[] = [
  { value: 'split', label: '拆分', color: 'purple' },
  { value: 'merge', label: '合并', color: 'orange' },
  { value: 'assembly', label: '装配领用', color: 'cyan' },
  // 选配 (issue 38 §4): the ring cards whose measured rings an accepted matching put into the bearing card.
  { value: 'matching', label: '选配', color: 'geekblue' },
];
