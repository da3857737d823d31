/** Ant Design's number input in a module of its own, for `lazy-inputs.tsx` to load on demand. */
export { InputNumber } from 'antd';
