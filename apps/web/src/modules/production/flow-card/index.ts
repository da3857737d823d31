/** 流转卡 components for other pages (the workshop screens reuse the drawer and the scan field). */
export { type FlowCard, flowCardApi, flowCardKeys } from './flow-card.api.ts';
export { FlowCardDrawer, FlowCardView, StatusTag } from './flow-card-detail.tsx';
export { FlowCardPrint } from './flow-card-print.tsx';
export { FlowCardScan } from './flow-card-scan.tsx';
export { OrderFlowCards } from './order-flow-cards.tsx';
