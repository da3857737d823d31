import { Modal, message } from 'antd';

/** The Ant Design parts of `feedback.ts`, loaded with the first toast or confirmation. */
message.config({ top: 56, maxCount: 4 });

export { Modal, message };
