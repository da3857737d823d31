/** Ant Design's date picker in a module of its own, for `lazy-inputs.tsx` to load on demand. */
export { DatePicker } from 'antd';
