/** Ant Design's tree select in a module of its own, for `lazy-inputs.tsx` to load on demand. */
export { TreeSelect } from 'antd';
